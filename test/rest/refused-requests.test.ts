// What a refused REST request is answered, and that it changes nothing:
// request-level errors (decisions.md §2: keys 401, paths 404, methods 405,
// bodies 400, 413, 415) on every endpoint; what a 404 says; 422
// validation_failed naming every bad field and 409 already_exists (§2–§3);
// and tenancy (§1): another buyer's record behaves exactly like one that does not exist.

import { randomUUID } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSupplier, type SeededBuyer, seedApiKey, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { errorFields, expectProblem, idsOf, objectBody, type ProblemBody } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
}

describe("REST v1 request-level errors", () => {
  let buyer: SeededBuyer;
  let orderId: string;
  let revokedKey: string;

  const endpoints: Endpoint[] = [
    {
      name: "create supplier user",
      method: "POST",
      path: () => `/suppliers/${buyer.supplierId}/users`,
      body: () => ({ first_name: "A", last_name: "B", contact_email: "a@example.com" }),
    },
    {
      name: "attach tags",
      method: "POST",
      path: () => "/taggings",
      body: () => ({ taggable_id: buyer.buyerProductId, tag_ids: [buyer.tagIds[0]] }),
    },
    {
      name: "create buyer product",
      method: "POST",
      path: () => "/buyer_products",
      body: () => ({ raw_material_name: "Errors product", measurement_unit: "kg", product_type: "Other" }),
    },
    { name: "list orders", method: "GET", path: () => "/orders" },
    {
      name: "update order",
      method: "PATCH",
      path: () => `/orders/${orderId}`,
      body: () => ({ purchase_order_reference: "PO-1" }),
    },
    { name: "list approvals", method: "GET", path: () => "/buyer_product_approvals" },
  ];
  const writeEndpoints = endpoints.filter((endpoint) => endpoint.body);
  const counts = async () => ({
    supplierUsers: await harness.database.prisma.supplierUser.count(),
    buyerProducts: await harness.database.prisma.buyerProduct.count(),
    taggings: await harness.database.prisma.tagging.count(),
    orderEvents: await harness.database.prisma.orderEvent.count(),
  });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Errors");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-01-01") }]);
    const revoked = await seedApiKey(harness.database, buyer);
    revokedKey = revoked.apiKey;
    await harness.database.prisma.apiKey.update({
      where: { id: revoked.apiKeyId },
      data: { revokedAt: new Date() },
    });
  });

  describe("401 unauthenticated", () => {
    it.each(endpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a missing, unknown, malformed or revoked key gets the same 401 body and changes nothing",
      async (_name, endpoint) => {
        const ordersBefore = await harness.database.prisma.order.findMany({ orderBy: { id: "asc" } });
        const countsBefore = await counts();
        const keys: (string | null)[] = [
          null,
          "bpk_unknownunknownunknownunknownunknownunkn",
          "not-even-a-key",
          revokedKey,
        ];
        const bodies: Omit<ProblemBody, "request_id">[] = [];
        for (const key of keys) {
          const response = await callApi(harness.app, endpoint.method, endpoint.path(), {
            key,
            body: endpoint.body?.(),
          });
          const { request_id: _requestId, ...rest } = expectProblem(response, 401, "unauthenticated");
          expect(response.headers.get("ratelimit-limit")).toBeNull();
          bodies.push(rest);
        }
        expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
        expect(await counts()).toEqual(countsBefore);
        expect(await harness.database.prisma.order.findMany({ orderBy: { id: "asc" } })).toEqual(
          ordersBefore,
        );
      },
    );
  });

  describe("404 not_found for paths", () => {
    it.each([
      ["an unknown path", "/nothing_here"],
      ["an unknown version", "http://localhost/api/public/buyer/v2/orders"],
      ["the bare prefix", "http://localhost/api/public/buyer/v1"],
      ["a path outside the API", "http://localhost/orders"],
      ["a trailing segment", "/orders/extra/segment"],
    ])("%s (%s) is 404", async (_name, path) => {
      const response = await callApi(harness.app, "GET", path, { key: buyer.apiKey });
      expectProblem(response, 404, "not_found");
    });

    it.each([
      ["PATCH", "/orders/not-a-uuid"],
      ["PATCH", "/orders/12345678-1234-1234-1234-1234567890"],
      ["PATCH", "/orders/%7Bc0ffee00-0000-4000-8000-000000000000%7D"],
      ["POST", "/suppliers/not-a-uuid/users"],
      ["POST", "/suppliers/%zz/users"],
    ])("%s %s: a path id that is not a UUID is 404", async (method, path) => {
      const response = await callApi(harness.app, method, path, {
        key: buyer.apiKey,
        body: { first_name: "A", last_name: "B", contact_email: "a@example.com" },
      });
      expectProblem(response, 404, "not_found");
    });

    it("PATCH /orders/{id} of an id that does not exist is 404", async () => {
      const response = await callApi(harness.app, "PATCH", "/orders/c0ffee00-0000-4000-8000-000000000000", {
        key: buyer.apiKey,
        body: { order_status: "order_placed" },
      });
      expectProblem(response, 404, "not_found");
    });

    it("POST /suppliers/{id}/users of a supplier that does not exist, or is not connected, is 404", async () => {
      const supplierUsersBefore = await harness.database.prisma.supplierUser.count();
      for (const supplierId of ["c0ffee00-0000-4000-8000-000000000000", buyer.unconnectedSupplierId]) {
        const response = await callApi(harness.app, "POST", `/suppliers/${supplierId}/users`, {
          key: buyer.apiKey,
          body: { first_name: "Nobody", last_name: "Here", contact_email: "nobody@example.com" },
        });
        expectProblem(response, 404, "not_found");
      }
      expect(await harness.database.prisma.supplierUser.count()).toBe(supplierUsersBefore);
    });

    it("an upper-case path id names the same order", async () => {
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId.toUpperCase()}`, {
        key: buyer.apiKey,
        body: {},
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: orderId });
    });
  });

  describe("405 method_not_allowed", () => {
    it.each([
      ["DELETE", "/orders", "GET, HEAD"],
      ["POST", "/orders", "GET, HEAD"],
      ["GET", "/taggings", "POST"],
      ["PUT", "/buyer_products", "POST"],
      ["POST", "/buyer_product_approvals", "GET, HEAD"],
      ["GET", "/suppliers/c0ffee00-0000-4000-8000-000000000000/users", "POST"],
      ["DELETE", "/orders/c0ffee00-0000-4000-8000-000000000000", "PATCH, GET, HEAD"],
      ["PUT", "/orders/c0ffee00-0000-4000-8000-000000000000", "PATCH, GET, HEAD"],
    ])("%s %s is 405 with Allow: %s", async (method, path, allow) => {
      const response = await callApi(harness.app, method, path, { key: buyer.apiKey });
      expectProblem(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe(allow);
    });
  });

  describe("bodies", () => {
    it.each(writeEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a body that is not JSON, or not a JSON object, is 400 invalid_json",
      async (_name, endpoint) => {
        for (const rawBody of [
          "{",
          '{"a":1',
          "[]",
          '[{"first_name":"A"}]',
          '"a string"',
          "42",
          "null",
          "true",
        ]) {
          const response = await callApi(harness.app, endpoint.method, endpoint.path(), {
            key: buyer.apiKey,
            rawBody,
          });
          expectProblem(response, 400, "invalid_json");
        }
      },
    );

    it.each(writeEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a body nested absurdly deep is 400 invalid_json, with or without an Idempotency-Key",
      async (_name, endpoint) => {
        const depth = 100_000;
        const fields = JSON.stringify(endpoint.body?.()).slice(1, -1);
        const rawBody = `{${fields},"extra":${"[".repeat(depth)}${"]".repeat(depth)}}`;
        const withAndWithoutKey: Record<string, string>[] = [
          {},
          { "idempotency-key": `deep-${endpoint.name}` },
        ];
        for (const headers of withAndWithoutKey) {
          const response = await callApi(harness.app, endpoint.method, endpoint.path(), {
            key: buyer.apiKey,
            rawBody,
            headers,
          });
          expectProblem(response, 400, "invalid_json");
        }
        // Ordinary nesting, such as resource values, is fine.
        const shallow = JSON.stringify({ ...(endpoint.body?.() as object), extra: [[[{ a: [1] }]]] });
        const accepted = await callApi(harness.app, endpoint.method, endpoint.path(), {
          key: buyer.apiKey,
          rawBody: shallow,
        });
        expect(accepted.status).toBeLessThan(300);
      },
    );

    it.each(writeEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a body that is not application/json is 415 unsupported_media_type",
      async (_name, endpoint) => {
        for (const contentType of [
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data",
        ]) {
          const response = await callApi(harness.app, endpoint.method, endpoint.path(), {
            key: buyer.apiKey,
            rawBody: JSON.stringify(endpoint.body?.()),
            headers: { "content-type": contentType },
          });
          expectProblem(response, 415, "unsupported_media_type");
        }
        const withoutType = await harness.app.fetch(
          `http://localhost/api/public/buyer/v1${endpoint.path()}`,
          {
            method: endpoint.method,
            headers: { "x-api-key": buyer.apiKey },
            body: new TextEncoder().encode(JSON.stringify(endpoint.body?.())),
          },
        );
        expect(withoutType.status).toBe(415);
      },
    );

    it.each(writeEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a coded body (Content-Encoding: gzip) is 415 naming identity, and writes nothing",
      async (_name, endpoint) => {
        const before = await counts();
        for (const [coding, body] of [
          ["gzip", gzipSync(JSON.stringify(endpoint.body?.()))],
          ["br", brotliCompressSync(JSON.stringify(endpoint.body?.()))],
        ] as const) {
          const response = await harness.app.fetch(`http://localhost/api/public/buyer/v1${endpoint.path()}`, {
            method: endpoint.method,
            headers: {
              "x-api-key": buyer.apiKey,
              "content-type": "application/json",
              "content-encoding": coding,
            },
            body,
          });
          expect(response.status).toBe(415);
          expect(response.headers.get("accept-encoding")).toBe("identity");
          const problem = (await response.json()) as ProblemBody;
          expect(problem.code).toBe("unsupported_media_type");
          expect(problem.detail).toContain(coding);
          expect(problem.detail).toContain("identity");
        }
        expect(await counts()).toEqual(before);
      },
    );

    it("accepts a body that says Content-Encoding: identity", async () => {
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: buyer.apiKey,
        rawBody: JSON.stringify({ supplier_order_reference: "SO-identity" }),
        headers: { "content-encoding": "identity" },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ supplier_order_reference: "SO-identity" });
    });

    it("accepts application/json with a charset parameter", async () => {
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: buyer.apiKey,
        rawBody: JSON.stringify({ supplier_order_reference: "SO-charset" }),
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ supplier_order_reference: "SO-charset" });
    });

    it.each(writeEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a 2 MiB body is 413 payload_too_large and writes nothing",
      async (_name, endpoint) => {
        const before = await counts();
        const padding = "x".repeat(2 * 1024 * 1024);
        const rawBody = JSON.stringify({ ...(endpoint.body?.() as object), padding });
        const response = await callApi(harness.app, endpoint.method, endpoint.path(), {
          key: buyer.apiKey,
          rawBody,
        });
        expectProblem(response, 413, "payload_too_large");
        // The same body streamed without a declared length is refused as well.
        const streamed = await harness.app.fetch(`http://localhost/api/public/buyer/v1${endpoint.path()}`, {
          method: endpoint.method,
          headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
          body: new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(rawBody));
              controller.close();
            },
          }),
          duplex: "half",
        } as RequestInit);
        expect(streamed.status).toBe(413);
        expect(await counts()).toEqual(before);
      },
    );

    it("a body just under 1 MiB is read", async () => {
      const rawBody = JSON.stringify({
        purchase_order_reference: "PO-big",
        padding: "x".repeat(1024 * 1000),
      });
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: buyer.apiKey,
        rawBody,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ purchase_order_reference: "PO-big" });
    });
  });
});

// docs/design/decisions.md §2 "Statuses and codes": a 404 says what was not found.
// A path no operation has names the path and points to the reference; a
// record's 404 names the kind of record, worded the same by a read and a write.
describe("what a REST 404 says", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let othersOrderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Not Found");
    other = await seedBuyer(harness.database, "Not Found Other");
    [othersOrderId = ""] = await seedOrders(harness.database, other, [{ createdAt: new Date("2025-01-01") }]);
  });

  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  it("a path no operation has: the detail names it and points to /docs, as Link rel=help does", async () => {
    const response = await api("GET", "/purchase_orders");
    const problem = expectProblem(response, 404, "not_found");
    expect(problem.detail).toBe(
      "No operation has the path /api/public/buyer/v1/purchase_orders; the API reference is at /docs",
    );
    expect(response.headers.get("link")).toBe('</docs>; rel="help"');
  });

  it("another organisation's order: GET and PATCH say the same", async () => {
    const read = expectProblem(await api("GET", `/orders/${othersOrderId}`), 404, "not_found");
    const write = expectProblem(await api("PATCH", `/orders/${othersOrderId}`, {}), 404, "not_found");
    expect(read.detail).toBe("Order not found");
    expect(write.detail).toBe(read.detail);
    const malformed = expectProblem(await api("GET", "/orders/not-an-id"), 404, "not_found");
    expect(malformed.detail).toBe(read.detail);
  });

  it("each kind of record is named", async () => {
    const missing = randomUUID();
    const details = await Promise.all(
      [
        ["GET", `/buyer_products/${missing}`],
        ["GET", `/buyer_product_approvals/${missing}`],
        ["GET", `/events/${missing}`],
        ["GET", `/webhook_endpoints/${missing}`],
        ["GET", `/webhook_endpoints/not-an-id/deliveries`],
        ["POST", `/suppliers/not-an-id/users`],
      ].map(
        async ([method = "", path = ""]) =>
          expectProblem(await api(method, path, method === "POST" ? {} : undefined), 404, "not_found").detail,
      ),
    );
    expect(details).toEqual([
      "Buyer product not found",
      "Buyer product approval not found",
      "Event not found",
      "Webhook endpoint not found",
      "Webhook endpoint not found",
      "Supplier not found",
    ]);
  });
});

// decisions.md §2–§3: 422 validation_failed with every bad field named in
// the REST spelling, and 409 already_exists, on every endpoint that takes input.
const LONG = "x".repeat(256);
const LONGEST = "y".repeat(255);
const UNKNOWN_ID = "c0ffee00-0000-4000-8000-000000000000";
/** A cursor shaped like ours (time and id, base64url) but for a time we never wrote. */
const cursorAt = (time: string) => Buffer.from(`${time}|${UNKNOWN_ID}`).toString("base64url");

describe("REST v1 validation errors", () => {
  let buyer: SeededBuyer;
  let orderId: string;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Validation");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-01-01"), purchaseOrderReference: "PO-KEEP" },
    ]);
  });

  describe("POST /suppliers/{supplier_id}/users", () => {
    const path = () => `/suppliers/${buyer.supplierId}/users`;
    const valid = { first_name: "Grace", last_name: "Hopper", contact_email: "grace@example.com" };

    it("names every missing required field", async () => {
      const response = await api("POST", path(), {});
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("an empty body is the same as {}", async () => {
      const response = await callApi(harness.app, "POST", path(), { key: buyer.apiKey });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("refuses null and blank values as missing", async () => {
      const nulls = await api("POST", path(), { ...valid, first_name: null, contact_email: null });
      expectProblem(nulls, 422, "validation_failed", [
        ["first_name", "required"],
        ["contact_email", "required"],
      ]);
      const blanks = await api("POST", path(), { first_name: "", last_name: "   ", contact_email: "\t" });
      expectProblem(blanks, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("refuses a 256-character field and accepts 255", async () => {
      for (const field of ["first_name", "last_name"] as const) {
        const response = await api("POST", path(), { ...valid, [field]: LONG });
        expectProblem(response, 422, "validation_failed", [[field, "too_long"]]);
      }
      const email = await api("POST", path(), { ...valid, contact_email: `${"e".repeat(244)}@example.com` });
      expectProblem(email, 422, "validation_failed", [["contact_email", "too_long"]]);
      const longest = await api("POST", path(), {
        first_name: LONGEST,
        last_name: LONGEST,
        contact_email: "longest@example.com",
      });
      expect(longest.status).toBe(201);
      expect(longest.body).toMatchObject({ first_name: LONGEST, last_name: LONGEST });
    });

    it("refuses wrong types", async () => {
      const response = await api("POST", path(), {
        first_name: 42,
        last_name: ["Hopper"],
        contact_email: {},
      });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "invalid"],
        ["last_name", "invalid"],
        ["contact_email", "invalid"],
      ]);
    });

    it.each(["not-an-email", "a@b", "two@@example.com", "spaced out@example.com", "@example.com"])(
      "refuses the email %j",
      async (contactEmail) => {
        const response = await api("POST", path(), { ...valid, contact_email: contactEmail });
        expectProblem(response, 422, "validation_failed", [["contact_email", "invalid"]]);
      },
    );

    it("refuses the NUL character, which no text column can hold", async () => {
      const response = await api("POST", path(), {
        first_name: "Gr\u0000ace",
        last_name: "\u0000",
        contact_email: "nul\u0000@example.com",
      });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "invalid"],
        ["last_name", "invalid"],
        ["contact_email", "invalid"],
      ]);
    });

    it("409 already_exists for the same email in another case under the same supplier", async () => {
      const first = await api("POST", path(), { ...valid, contact_email: "Dup.User@Example.com" });
      expect(first.status).toBe(201);
      const again = await api("POST", path(), { ...valid, contact_email: "dup.user@EXAMPLE.COM" });
      expectProblem(again, 409, "already_exists");
      const padded = await api("POST", path(), { ...valid, contact_email: "  DUP.USER@example.com " });
      expectProblem(padded, 409, "already_exists");
      expect(
        await harness.database.prisma.supplierUser.count({
          where: { contactEmailKey: "dup.user@example.com" },
        }),
      ).toBe(1);
    });
  });

  describe("POST /taggings", () => {
    it("names both missing fields", async () => {
      const response = await api("POST", "/taggings", {});
      expectProblem(response, 422, "validation_failed", [
        ["taggable_id", "required"],
        ["tag_ids", "required"],
      ]);
    });

    it("names a malformed taggable id and each malformed tag id by index", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: "not-a-uuid",
        tag_ids: [buyer.tagIds[0], buyer.tagIds[1], "nope"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["taggable_id", "invalid"],
        ["tag_ids[2]", "invalid"],
      ]);
    });

    it.each([
      ["a number", 7],
      ["a UUID with a trailing brace", `${UNKNOWN_ID}}`],
      ["a UUID with a leading brace", `{${UNKNOWN_ID}`],
      ["a UUID without dashes", UNKNOWN_ID.replaceAll("-", "")],
      ["a UUID with a space", ` ${UNKNOWN_ID}`],
    ])("a taggable id that is %s is 422", async (_name, taggableId) => {
      const response = await api("POST", "/taggings", {
        taggable_id: taggableId,
        tag_ids: [buyer.tagIds[0]],
      });
      expectProblem(response, 422, "validation_failed", [["taggable_id", "invalid"]]);
    });

    it("a tag id with a trailing brace is 422 naming it", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: [buyer.tagIds[0], `${buyer.tagIds[1]}}`],
      });
      expectProblem(response, 422, "validation_failed", [["tag_ids[1]", "invalid"]]);
    });

    it("refuses tag_ids that is not an array of UUID strings, even a single UUID", async () => {
      for (const tagIds of [buyer.tagIds[0], {}, [7], [null]]) {
        const response = await api("POST", "/taggings", {
          taggable_id: buyer.buyerProductId,
          tag_ids: tagIds,
        });
        expect(response.status).toBe(422);
        expect(errorFields(response)[0]).toMatch(/^tag_ids/);
      }
    });

    it("0 or 101 tag ids is 422 on tag_ids", async () => {
      const taggingsBefore = await harness.database.prisma.tagging.count();
      const none = await api("POST", "/taggings", { taggable_id: buyer.buyerProductId, tag_ids: [] });
      expectProblem(none, 422, "validation_failed", [["tag_ids", "required"]]);
      const many = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: Array.from({ length: 101 }, () => buyer.tagIds[0]),
      });
      expectProblem(many, 422, "validation_failed", [["tag_ids", "too_many"]]);
      expect(await harness.database.prisma.tagging.count()).toBe(taggingsBefore);
    });

    it("an unknown taggable is 404, an unknown tag is 422 naming tag_ids[i]", async () => {
      const taggingsBefore = await harness.database.prisma.tagging.count();
      const taggable = await api("POST", "/taggings", {
        taggable_id: UNKNOWN_ID,
        tag_ids: [buyer.tagIds[0]],
      });
      expectProblem(taggable, 404, "not_found");
      const tag = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: [buyer.tagIds[0], UNKNOWN_ID, buyer.tagIds[1], UNKNOWN_ID],
      });
      expectProblem(tag, 422, "validation_failed", [
        ["tag_ids[1]", "not_found"],
        ["tag_ids[3]", "not_found"],
      ]);
      expect(await harness.database.prisma.tagging.count()).toBe(taggingsBefore);
    });

    it("ids in upper case name the same records", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: buyer.approvalId.toUpperCase(),
        tag_ids: [buyer.tagIds[2]?.toUpperCase()],
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        taggable_type: "BuyerProductApproval",
        taggable_id: buyer.approvalId,
        added_tag_ids: [buyer.tagIds[2]],
      });
    });
  });

  describe("POST /buyer_products", () => {
    const valid = { raw_material_name: "Validation Product", measurement_unit: "kg", product_type: "Other" };

    it("names every missing required field", async () => {
      const response = await api("POST", "/buyer_products", {});
      expectProblem(response, 422, "validation_failed", [
        ["raw_material_name", "required"],
        ["measurement_unit", "required"],
        ["product_type", "required"],
      ]);
    });

    it("refuses enum values in any spelling but the contract's", async () => {
      const response = await api("POST", "/buyer_products", {
        raw_material_name: "Spelling",
        measurement_unit: "ml",
        product_type: "RAW_MATERIAL",
        container_type: "BulkBag",
        document_types: ["sds", "SDS", "safety_sheet"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["measurement_unit", "invalid"],
        ["product_type", "invalid"],
        ["container_type", "invalid"],
        ["document_types[1]", "invalid"],
        ["document_types[2]", "invalid"],
      ]);
      const problem = response.body as ProblemBody;
      const message = problem.errors?.find((error) => error.field === "product_type")?.message;
      expect(message).toBe("must be one of: Dye, Fragrance, Other, Packaging, Raw Material");
      for (const productType of ["raw material", "RawMaterial", "Raw  Material"]) {
        const again = await api("POST", "/buyer_products", { ...valid, product_type: productType });
        expectProblem(again, 422, "validation_failed", [["product_type", "invalid"]]);
      }
    });

    it("refuses wrong types", async () => {
      const response = await api("POST", "/buyer_products", {
        raw_material_name: 12,
        measurement_unit: "kg",
        product_type: "Other",
        raw_material_code: true,
        annual_usage: "12",
        typical_order_size: 1.5,
        frequency: 7,
        target_approvals: 3_000_000_000,
        priority_product: "yes",
        active: 1,
        document_types: "sds,tds",
        resource_values: { provider: "erp", value: "1" },
      });
      expect(response.status).toBe(422);
      expect(errorFields(response).sort()).toEqual(
        [
          "raw_material_name",
          "raw_material_code",
          "annual_usage",
          "typical_order_size",
          "frequency",
          "target_approvals",
          "priority_product",
          "active",
          "document_types",
          "resource_values",
        ].sort(),
      );
    });

    it("refuses blank and too long strings", async () => {
      const blank = await api("POST", "/buyer_products", { ...valid, raw_material_name: "  " });
      expectProblem(blank, 422, "validation_failed", [["raw_material_name", "required"]]);
      const long = await api("POST", "/buyer_products", {
        ...valid,
        raw_material_name: LONG,
        raw_material_code: LONG,
        frequency: LONG,
      });
      expectProblem(long, 422, "validation_failed", [
        ["raw_material_name", "too_long"],
        ["raw_material_code", "too_long"],
        ["frequency", "too_long"],
      ]);
    });

    it("refuses the NUL character in any text", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        raw_material_name: "Nul\u0000Name",
        raw_material_code: "\u0000",
        frequency: "weekly\u0000",
        resource_values: [{ provider: "erp", value: "\u0000v" }],
      });
      expectProblem(response, 422, "validation_failed", [
        ["raw_material_name", "invalid"],
        ["raw_material_code", "invalid"],
        ["frequency", "invalid"],
        ["resource_values[0].value", "invalid"],
      ]);
    });

    it("refuses negative integers and repeated document types", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        annual_usage: -1,
        typical_order_size: -5,
        target_approvals: -2,
        document_types: ["sds", "tds", "sds"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["annual_usage", "out_of_range"],
        ["typical_order_size", "out_of_range"],
        ["target_approvals", "out_of_range"],
        ["document_types[2]", "duplicate"],
      ]);
    });

    it("names bad resource values by index and field, and refuses more than 50", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: [
          { provider: "erp", value: "ok" },
          { provider: " ", value: "x" },
          { provider: "mrp" },
        ],
      });
      expectProblem(response, 422, "validation_failed", [["resource_values[2].value", "required"]]);
      const blank = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: [
          { provider: "erp", value: "ok" },
          { provider: " ", value: LONG },
        ],
      });
      expectProblem(blank, 422, "validation_failed", [
        ["resource_values[1].provider", "required"],
        ["resource_values[1].value", "too_long"],
      ]);
      const many = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: Array.from({ length: 51 }, (_, index) => ({ provider: "erp", value: `v${index}` })),
      });
      expectProblem(many, 422, "validation_failed", [["resource_values", "too_many"]]);
      expect(await harness.database.prisma.buyerProduct.count({ where: { buyerId: buyer.buyerId } })).toBe(1);
    });
  });

  describe("GET /orders", () => {
    it.each([
      ["limit=0", "limit", "out_of_range"],
      ["limit=501", "limit", "out_of_range"],
      ["limit=abc", "limit", "invalid"],
      ["limit=-1", "limit", "invalid"],
      ["limit=10.5", "limit", "invalid"],
      ["limit=", "limit", "invalid"],
      ["cursor=not-a-cursor!", "cursor", "invalid"],
      [`cursor=${Buffer.from("hello|world").toString("base64url")}`, "cursor", "invalid"],
      ["cursor=", "cursor", "invalid"],
      [`cursor=${cursorAt("0000-01-01T00:00:00.000Z")}`, "cursor", "invalid"],
      [`cursor=${cursorAt("+010000-01-01T00:00:00.000Z")}`, "cursor", "invalid"],
      [`cursor=${cursorAt("2025-01-01T00:00:00Z")}`, "cursor", "invalid"],
      ["created_at_from=2025-13-01", "created_at_from", "invalid"],
      ["created_at_from=2025-02-30", "created_at_from", "invalid"],
      ["created_at_from=yesterday", "created_at_from", "invalid"],
      ["created_at_from=2025-01-01T00:00:00Z", "created_at_from", "invalid"],
      ["created_at_to=2025-1-5", "created_at_to", "invalid"],
      ["created_at_from=0000-01-01", "created_at_from", "invalid"],
      ["created_at_to=0000-12-31", "created_at_to", "invalid"],
      ["created_at_from=2025-03-02&created_at_to=2025-03-01", "created_at_from", "invalid"],
      ["order_status[]=bogus", "order_status[0]", "invalid"],
      ["order_status[]=quote_selected&order_status[]=Delivered", "order_status[1]", "invalid"],
      ["order_status=quote_selected,lost", "order_status[1]", "invalid"],
    ])("?%s is 422 on %s", async (query, field, code) => {
      const response = await api("GET", `/orders?${query}`);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
    });

    it("names every bad parameter of a kind at once", async () => {
      const types = await api("GET", "/orders?limit=abc&order_status=nope&created_at_to=never");
      expectProblem(types, 422, "validation_failed", [
        ["limit", "invalid"],
        ["order_status[0]", "invalid"],
        ["created_at_to", "invalid"],
      ]);
      const values = await api(
        "GET",
        "/orders?limit=0&cursor=zzz&created_at_from=2025-02-01&created_at_to=2025-01-01",
      );
      expectProblem(values, 422, "validation_failed", [
        ["limit", "out_of_range"],
        ["cursor", "invalid"],
        ["created_at_from", "invalid"],
      ]);
    });

    it("explains a from after to without GraphQL names", async () => {
      const response = await api("GET", "/orders?created_at_from=2025-03-02&created_at_to=2025-03-01");
      const problem = expectProblem(response, 422, "validation_failed", [["created_at_from", "invalid"]]);
      expect(problem.detail).toMatch(/^created_at_from /);
      expect(problem.detail).not.toMatch(/createdAt|filter/);
      expect(problem.errors?.[0]?.message).not.toMatch(/createdAt|filter/);
    });

    it("accepts the first and last days of four-digit years", async () => {
      const response = await api("GET", "/orders?created_at_from=0001-01-01&created_at_to=9999-12-31");
      expect(response.status).toBe(200);
      expect(idsOf(response)).toEqual([orderId]);
    });

    it("the same day for from and to is fine", async () => {
      const response = await api("GET", "/orders?created_at_from=2025-01-01&created_at_to=2025-01-01");
      expect(response.status).toBe(200);
      expect(idsOf(response)).toEqual([orderId]);
    });
  });

  describe("GET /buyer_product_approvals", () => {
    it.each([
      ["limit=0", "limit", "out_of_range"],
      ["limit=501", "limit", "out_of_range"],
      ["limit=abc", "limit", "invalid"],
      ["cursor=bogus", "cursor", "invalid"],
      [`cursor=${cursorAt("0000-12-31T23:59:59.999Z")}`, "cursor", "invalid"],
      ["approval_status[]=rejected", "approval_status[0]", "invalid"],
      ["approval_status=approved,Approved", "approval_status[1]", "invalid"],
      ["buyer_product_id=not-a-uuid", "buyer_product_id", "invalid"],
    ])("?%s is 422 on %s", async (query, field, code) => {
      const response = await api("GET", `/buyer_product_approvals?${query}`);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
    });
  });

  describe("PATCH /orders/{id}", () => {
    const path = () => `/orders/${orderId}`;

    it.each([
      [{ order_status: "lost" }, "order_status", "invalid"],
      [{ order_status: "Delivered" }, "order_status", "invalid"],
      [{ order_status: null }, "order_status", "invalid"],
      [{ order_status: 3 }, "order_status", "invalid"],
      [{ placed_at: "yesterday" }, "placed_at", "invalid"],
      [{ placed_at: "2025-02-30T00:00:00.000Z" }, "placed_at", "invalid"],
      [{ placed_at: null }, "placed_at", "invalid"],
      [{ placed_at: "0000-06-01T00:00:00.000Z" }, "placed_at", "invalid"],
      [{ placed_at: "0001-01-01T00:30:00+01:00" }, "placed_at", "invalid"],
      [{ placed_at: "9999-12-31T23:30:00-01:00" }, "placed_at", "invalid"],
      [{ placed_at: "2025-01-01T00:00:00" }, "placed_at", "invalid"],
      [{ purchase_order_reference: "PO\u0000" }, "purchase_order_reference", "invalid"],
      [
        { resource_values: [{ provider: "erp\u0000", value: "x" }] },
        "resource_values[0].provider",
        "invalid",
      ],
      [{ purchase_order_reference: LONG }, "purchase_order_reference", "too_long"],
      [{ supplier_order_reference: LONG }, "supplier_order_reference", "too_long"],
      [{ purchase_order_reference: 12 }, "purchase_order_reference", "invalid"],
      [{ resource_values: null }, "resource_values", "invalid"],
      [{ resource_values: "erp" }, "resource_values", "invalid"],
      [{ resource_values: [{ provider: "erp", value: "" }] }, "resource_values[0].value", "required"],
      [{ resource_values: [{ value: "x" }] }, "resource_values[0].provider", "required"],
      [{ resource_values: [{ provider: "erp", value: "x" }, null] }, "resource_values[1]", "required"],
    ])("%j is 422 on %s and changes nothing", async (body, field, code) => {
      const response = await api("PATCH", path(), body);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
      const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({ orderStatus: "quote_selected", purchaseOrderReference: "PO-KEEP" });
      expect(await harness.database.prisma.orderEvent.count({ where: { buyerId: buyer.buyerId } })).toBe(0);
    });

    it("an unknown order is 404 even with a valid body", async () => {
      const response = await api("PATCH", `/orders/${UNKNOWN_ID}`, { purchase_order_reference: "x" });
      expectProblem(response, 404, "not_found");
    });
  });
});

// decisions.md §1: every read and write is scoped to the key's buyer; another
// buyer's record behaves exactly like one that does not exist.
describe("tenancy between two buyers", () => {
  let alice: SeededBuyer;
  let bob: SeededBuyer;
  let aliceOrders: string[];
  let bobOrders: string[];
  let aliceUserId: string;
  const as = (buyer: SeededBuyer, method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });
  /** A problem body without its request id, to compare two refusals. */
  const refusal = (body: unknown) => {
    const { request_id: _requestId, ...rest } = body as ProblemBody;
    return rest;
  };

  beforeAll(async () => {
    alice = await seedBuyer(harness.database, "Alice");
    bob = await seedBuyer(harness.database, "Bob");
    aliceOrders = await seedOrders(harness.database, alice, [
      { createdAt: new Date("2025-07-01T00:00:00.000Z"), purchaseOrderReference: "ALICE-PO" },
      { createdAt: new Date("2025-07-02T00:00:00.000Z"), orderStatus: "shipped" },
    ]);
    bobOrders = await seedOrders(harness.database, bob, [
      { createdAt: new Date("2025-07-03T00:00:00.000Z") },
    ]);
    const user = await as(alice, "POST", `/suppliers/${alice.supplierId}/users`, {
      first_name: "Alice's",
      last_name: "Contact",
      contact_email: "contact@alice-supplier.example",
    });
    aliceUserId = String(objectBody(user).id);
  });

  it("lists only the key's own orders, whatever the filters", async () => {
    expect(idsOf(await as(bob, "GET", "/orders"))).toEqual(bobOrders);
    expect(idsOf(await as(bob, "GET", "/orders?order_status[]=shipped"))).toEqual([]);
    expect(
      idsOf(await as(bob, "GET", "/orders?created_at_from=2025-07-01&created_at_to=2025-07-02")),
    ).toEqual([]);
    expect(idsOf(await as(alice, "GET", "/orders"))).toEqual([...aliceOrders].reverse());
  });

  it("lists only the key's own approvals, even when filtering by the other buyer's product", async () => {
    expect(idsOf(await as(bob, "GET", "/buyer_product_approvals"))).toEqual([bob.approvalId]);
    expect(
      idsOf(await as(bob, "GET", `/buyer_product_approvals?buyer_product_id=${alice.buyerProductId}`)),
    ).toEqual([]);
    expect(idsOf(await as(alice, "GET", "/buyer_product_approvals"))).toEqual([alice.approvalId]);
  });

  it("refuses to update another buyer's order exactly as an order that does not exist, changing nothing", async () => {
    const [target = ""] = aliceOrders;
    const foreign = await as(bob, "PATCH", `/orders/${target}`, {
      order_status: "delivered",
      purchase_order_reference: "BOB-WAS-HERE",
    });
    expectProblem(foreign, 404, "not_found");
    const missing = await as(bob, "PATCH", `/orders/${randomUUID()}`, {
      order_status: "delivered",
      purchase_order_reference: "BOB-WAS-HERE",
    });
    expect(refusal(foreign.body)).toEqual(refusal(missing.body));
    const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id: target } });
    expect(order).toMatchObject({ orderStatus: "quote_selected", purchaseOrderReference: "ALICE-PO" });
    expect(await harness.database.prisma.orderEvent.count({ where: { orderId: target } })).toBe(0);
  });

  it("refuses to tag another buyer's records exactly as records that do not exist", async () => {
    const missing = await as(bob, "POST", "/taggings", {
      taggable_id: randomUUID(),
      tag_ids: [bob.tagIds[0]],
    });
    expectProblem(missing, 404, "not_found");
    for (const taggableId of [alice.buyerProductId, aliceOrders[0], alice.approvalId, aliceUserId]) {
      const response = await as(bob, "POST", "/taggings", {
        taggable_id: taggableId,
        tag_ids: [bob.tagIds[0]],
      });
      expectProblem(response, 404, "not_found");
      expect(refusal(response.body)).toEqual(refusal(missing.body));
    }
    expect(
      await harness.database.prisma.tagging.count({
        where: { buyerId: { in: [alice.buyerId, bob.buyerId] } },
      }),
    ).toBe(0);
  });

  it("refuses another buyer's tags on the key's own record: 422 naming tag_ids[i]", async () => {
    const response = await as(bob, "POST", "/taggings", {
      taggable_id: bob.buyerProductId,
      tag_ids: [bob.tagIds[0], alice.tagIds[0]],
    });
    expectProblem(response, 422, "validation_failed", [["tag_ids[1]", "not_found"]]);
    expect(
      await harness.database.prisma.tagging.count({
        where: { buyerId: { in: [alice.buyerId, bob.buyerId] } },
      }),
    ).toBe(0);
  });

  it("refuses users under a supplier the key's buyer is not connected to, as for an unknown supplier", async () => {
    const body = { first_name: "Bob's", last_name: "Spy", contact_email: "spy@bob.example" };
    const foreign = await as(bob, "POST", `/suppliers/${alice.supplierId}/users`, body);
    expectProblem(foreign, 404, "not_found");
    const missing = await as(bob, "POST", `/suppliers/${randomUUID()}/users`, body);
    expect(refusal(foreign.body)).toEqual(refusal(missing.body));
    expect(
      await harness.database.prisma.supplierUser.count({ where: { contactEmail: "spy@bob.example" } }),
    ).toBe(0);
  });

  describe("a supplier both buyers are connected to", () => {
    let bobUserId: string;

    beforeAll(async () => {
      await connectSupplier(harness.database, bob, alice.supplierId, "distributor");
    });

    it("shows each buyer its own relationship on its orders", async () => {
      const [shared = ""] = await seedOrders(harness.database, bob, [
        { createdAt: new Date("2025-07-04T00:00:00.000Z"), supplierId: alice.supplierId },
      ]);
      const bobs = (await as(bob, "GET", "/orders")).body as Record<string, unknown>[];
      expect(bobs.find((order) => order.id === shared)).toMatchObject({
        supplier_profile_id: alice.supplierId,
        profile_connection_relationship: "distributor",
      });
      const alices = (await as(alice, "GET", "/orders")).body as Record<string, unknown>[];
      expect(alices.map((order) => order.profile_connection_relationship)).toEqual([
        "approved_supplier",
        "approved_supplier",
      ]);
    });

    it("lets the second buyer add users there, which only it can tag", async () => {
      const created = await as(bob, "POST", `/suppliers/${alice.supplierId}/users`, {
        first_name: "Bob's",
        last_name: "Contact",
        contact_email: "bob-contact@alice-supplier.example",
      });
      expect(created.status).toBe(201);
      bobUserId = String(objectBody(created).id);
      const byBob = await as(bob, "POST", "/taggings", { taggable_id: bobUserId, tag_ids: [bob.tagIds[0]] });
      expect(byBob.status).toBe(201);
      const byAlice = await as(alice, "POST", "/taggings", {
        taggable_id: bobUserId,
        tag_ids: [alice.tagIds[0]],
      });
      expectProblem(byAlice, 404, "not_found");
    });
  });
});
