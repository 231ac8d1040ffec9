// decisions.md §2, the rows about the request as a whole: keys (401), paths
// (404), methods (405), bodies (400, 413, 415), on every endpoint.
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedApiKey, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, type ProblemBody } from "./helpers.js";

interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
}

describe("REST v1 request-level errors", () => {
  let harness: TestApp;
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
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Errors");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-01-01") }]);
    const revoked = await seedApiKey(harness.database, buyer);
    revokedKey = revoked.apiKey;
    await harness.database.prisma.apiKey.update({
      where: { id: revoked.apiKeyId },
      data: { revokedAt: new Date() },
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe("401 unauthenticated", () => {
    it.each(endpoints.map((endpoint) => [endpoint.name, endpoint] as const))(
      "%s: a missing, unknown, malformed or revoked key gets the same 401 body and changes nothing",
      async (_name, endpoint) => {
        const ordersBefore = await harness.database.prisma.order.findMany({ orderBy: { id: "asc" } });
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
        expect(await harness.database.prisma.supplierUser.count()).toBe(0);
        expect(await harness.database.prisma.tagging.count()).toBe(0);
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
      for (const supplierId of ["c0ffee00-0000-4000-8000-000000000000", buyer.unconnectedSupplierId]) {
        const response = await callApi(harness.app, "POST", `/suppliers/${supplierId}/users`, {
          key: buyer.apiKey,
          body: { first_name: "Nobody", last_name: "Here", contact_email: "nobody@example.com" },
        });
        expectProblem(response, 404, "not_found");
      }
      expect(await harness.database.prisma.supplierUser.count()).toBe(0);
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
