// decisions.md §4: Idempotency-Key on POST endpoints; and POST /taggings (contract 4.2,
// decisions.md §3 "Taggings").

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, objectBody } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

describe("Idempotency-Key on POST", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  const post = (path: string, body: unknown, key: string, apiKey = buyer.apiKey) =>
    callApi(harness.app, "POST", path, { key: apiKey, body, headers: { "idempotency-key": key } });
  const counts = async () => ({
    buyerProducts: await harness.database.prisma.buyerProduct.count(),
    products: await harness.database.prisma.product.count(),
    supplierUsers: await harness.database.prisma.supplierUser.count(),
    taggings: await harness.database.prisma.tagging.count(),
  });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Idempotency");
    other = await seedBuyer(harness.database, "Idempotency Other");
  });

  const cases = [
    {
      name: "POST /buyer_products",
      path: () => "/buyer_products",
      body: () => ({ raw_material_name: "Idempotent Oil", measurement_unit: "L", product_type: "Other" }),
      changed: () => ({
        raw_material_name: "Idempotent Oil 2",
        measurement_unit: "L",
        product_type: "Other",
      }),
      grows: ["buyerProducts", "products"],
    },
    {
      name: "POST /suppliers/{id}/users",
      path: () => `/suppliers/${buyer.supplierId}/users`,
      body: () => ({ first_name: "Idem", last_name: "Potent", contact_email: "idem@example.com" }),
      changed: () => ({ first_name: "Idem", last_name: "Potent", contact_email: "other@example.com" }),
      grows: ["supplierUsers"],
    },
    {
      name: "POST /taggings",
      path: () => "/taggings",
      body: () => ({ taggable_id: buyer.approvalId, tag_ids: [buyer.tagIds[0]] }),
      changed: () => ({ taggable_id: buyer.approvalId, tag_ids: [buyer.tagIds[1]] }),
      grows: ["taggings"],
    },
  ] as const;

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "%s: the same key and body replay the first response and create nothing new",
    async (name, testCase) => {
      const key = `replay-${name}`;
      const before = await counts();
      const first = await post(testCase.path(), testCase.body(), key);
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const afterFirst = await counts();
      for (const [table, count] of Object.entries(afterFirst)) {
        const grown = (testCase.grows as readonly string[]).includes(table);
        expect(count, table).toBe(before[table as keyof typeof before] + (grown ? 1 : 0));
      }
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const again = await post(testCase.path(), testCase.body(), key);
        expect(again.status).toBe(201);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.headers.get("content-type")).toMatch(/^application\/json/);
        expect(again.text).toBe(first.text);
      }
      expect(await counts()).toEqual(afterFirst);
    },
  );

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "%s: the same key with a different body is 422 idempotency_key_reused and creates nothing",
    async (name, testCase) => {
      const key = `reuse-${name}`;
      // The first use may well collide with the replay test's records; only the key matters here.
      await post(testCase.path(), { ...testCase.body(), marker: 1 }, key);
      const before = await counts();
      const response = await post(testCase.path(), testCase.changed(), key);
      expectProblem(response, 422, "idempotency_key_reused");
      expect(await counts()).toEqual(before);
    },
  );

  it("the same body with its keys in another order and other whitespace is the same request", async () => {
    const path = `/suppliers/${buyer.supplierId}/users`;
    const send = (rawBody: string) =>
      callApi(harness.app, "POST", path, {
        key: buyer.apiKey,
        rawBody,
        headers: { "idempotency-key": "reordered" },
      });
    const first = await send('{"first_name":"Re","last_name":"Order","contact_email":"reorder@example.com"}');
    expect(first.status).toBe(201);
    const again = await send(
      '{ "contact_email": "reorder@example.com",\n  "last_name": "Order", "first_name": "Re" }',
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await harness.database.prisma.supplierUser.count({ where: { lastName: "Order" } })).toBe(1);
  });

  it("a replayed problem keeps the request_id of the request that did the work; X-Request-Id names the replay", async () => {
    const body = { raw_material_name: "", measurement_unit: "L", product_type: "Other" };
    const first = await post("/buyer_products", body, "replayed-problem");
    const problem = expectProblem(first, 422, "validation_failed");
    expect(problem.request_id).toBe(first.headers.get("x-request-id"));
    const again = await post("/buyer_products", body, "replayed-problem");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("x-request-id")).not.toBe(problem.request_id);
  });

  it("the same key on another endpoint is a different request: 422 idempotency_key_reused", async () => {
    const first = await post(
      "/buyer_products",
      { raw_material_name: "Cross Path", measurement_unit: "kg", product_type: "Dye" },
      "cross-path",
    );
    expect(first.status).toBe(201);
    const response = await post(
      `/suppliers/${buyer.supplierId}/users`,
      { first_name: "Cross", last_name: "Path", contact_email: "cross@example.com" },
      "cross-path",
    );
    expectProblem(response, 422, "idempotency_key_reused");
  });

  it("keys belong to the API key: another buyer's identical key and body create their own record", async () => {
    const body = {
      raw_material_name: "Shared Key Product",
      measurement_unit: "EA",
      product_type: "Packaging",
    };
    const mine = await post("/buyer_products", body, "shared-key");
    const theirs = await post("/buyer_products", body, "shared-key", other.apiKey);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(objectBody(theirs).id).not.toBe(objectBody(mine).id);
    expect(objectBody(theirs).auto_match).toEqual({ matched: true, strategy: "name", score: 1 });
  });

  it("replays a refusal as well: the same 409 for the same duplicate", async () => {
    const body = { first_name: "Dupe", last_name: "Licate", contact_email: "dupe@example.com" };
    expect((await post(`/suppliers/${buyer.supplierId}/users`, body, "dupe-1")).status).toBe(201);
    const refused = await post(`/suppliers/${buyer.supplierId}/users`, body, "dupe-2");
    expectProblem(refused, 409, "already_exists");
    const replayed = await post(`/suppliers/${buyer.supplierId}/users`, body, "dupe-2");
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.headers.get("content-type")).toBe("application/problem+json");
    expect(replayed.text).toBe(refused.text);
  });

  it("a key of 255 characters is accepted; 256 or blank is 422 naming Idempotency-Key", async () => {
    const body = (name: string) => ({ raw_material_name: name, measurement_unit: "g", product_type: "Dye" });
    const longest = await post("/buyer_products", body("Key Length OK"), "k".repeat(255));
    expect(longest.status).toBe(201);
    const before = await counts();
    for (const key of ["k".repeat(256), "   "]) {
      const response = await post("/buyer_products", body("Key Length Bad"), key);
      expectProblem(response, 422, "validation_failed", [["Idempotency-Key", "invalid"]]);
    }
    expect(await counts()).toEqual(before);
  });

  it("concurrent requests with the same key create once; the others replay or are told to retry", async () => {
    const body = { raw_material_name: "Concurrent Key Product", measurement_unit: "kg", product_type: "Dye" };
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => post("/buyer_products", body, "concurrent-key")),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of created) expect(response.text).toBe(created[0]?.text);
    for (const response of responses.filter((item) => item.status !== 201)) {
      expectProblem(response, 409, "idempotency_request_in_progress");
    }
    expect(
      await harness.database.prisma.buyerProduct.count({
        where: { rawMaterialName: "Concurrent Key Product" },
      }),
    ).toBe(1);
    const later = await post("/buyer_products", body, "concurrent-key");
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    expect(later.text).toBe(created[0]?.text);
  });

  it("without a key, the same body creates twice", async () => {
    const body = { raw_material_name: "No Key Product", measurement_unit: "MT", product_type: "Other" };
    const first = await callApi(harness.app, "POST", "/buyer_products", { key: buyer.apiKey, body });
    const second = await callApi(harness.app, "POST", "/buyer_products", { key: buyer.apiKey, body });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(objectBody(second).id).not.toBe(objectBody(first).id);
  });
});

// POST /taggings (contract 4.2, decisions.md §3 "Taggings").
describe("POST /taggings", () => {
  let buyer: SeededBuyer;
  let orderId: string;
  let supplierUserId: string;
  const tag = (taggableId: string, tagIds: (string | undefined)[]) =>
    callApi(harness.app, "POST", "/taggings", {
      key: buyer.apiKey,
      body: { taggable_id: taggableId, tag_ids: tagIds },
    });
  /** The ids in a tagging result's `tags`, in the order given (by tag name). */
  const tagIdsOf = (body: unknown) => (body as { tags: { id: string }[] }).tags.map((item) => item.id);

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Tagging");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-02-02") }]);
    const user = await callApi(harness.app, "POST", `/suppliers/${buyer.supplierId}/users`, {
      key: buyer.apiKey,
      body: { first_name: "Tag", last_name: "Gable", contact_email: "taggable@example.com" },
    });
    supplierUserId = String(objectBody(user).id);
  });

  it.each([
    ["BuyerProduct", () => buyer.buyerProductId],
    ["Order", () => orderId],
    ["BuyerProductApproval", () => buyer.approvalId],
    ["SupplierUser", () => supplierUserId],
  ] as const)("tags a %s of the buyer: 201 with its type", async (type, id) => {
    const response = await tag(id(), [buyer.tagIds[0]]);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      taggable_type: type,
      taggable_id: id(),
      added_tag_ids: [buyer.tagIds[0]],
    });
    expect(tagIdsOf(response.body)).toEqual([buyer.tagIds[0]]);
    expect(
      await harness.database.prisma.tagging.count({ where: { taggableId: id(), taggableType: type } }),
    ).toBe(1);
  });

  it("is idempotent: re-attaching adds nothing and lists every tag on the record", async () => {
    const [t0, t1, t2] = buyer.tagIds;
    const again = await tag(orderId, [t0]);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ added_tag_ids: [], tags: [expect.objectContaining({ id: t0 })] });
    const more = await tag(orderId, [t1, t0, t2]);
    expect(more.status).toBe(201);
    expect(more.body).toMatchObject({ added_tag_ids: [t1, t2] });
    expect(tagIdsOf(more.body)).toEqual([t0, t1, t2]);
    const all = await tag(orderId, [t2, t1, t0]);
    expect(all.body).toMatchObject({ added_tag_ids: [] });
    expect(tagIdsOf(all.body)).toEqual([t0, t1, t2]);
    expect(await harness.database.prisma.tagging.count({ where: { taggableId: orderId } })).toBe(3);
  });

  it("lists a tag repeated in one request once", async () => {
    const [t0, t1] = buyer.tagIds;
    const response = await tag(buyer.approvalId, [t1, t1, t0, t1]);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ added_tag_ids: [t1] });
    expect(tagIdsOf(response.body)).toEqual([t0, t1]);
  });

  it("accepts exactly 100 tag ids", async () => {
    const tagIds = Array.from({ length: 100 }, (_, index) => buyer.tagIds[index % 3]);
    const response = await tag(buyer.buyerProductId, tagIds);
    expect(response.status).toBe(201);
    expect(tagIdsOf(response.body)).toEqual(buyer.tagIds);
  });

  it("0 or 101 tag ids is 422 on tag_ids", async () => {
    expectProblem(await tag(orderId, []), 422, "validation_failed", [["tag_ids", "required"]]);
    const tooMany = Array.from({ length: 101 }, (_, index) => buyer.tagIds[index % 3]);
    expectProblem(await tag(orderId, tooMany), 422, "validation_failed", [["tag_ids", "too_many"]]);
  });

  it("an unknown taggable is 404 and an unknown tag 422 naming tag_ids[i], attaching nothing", async () => {
    const before = await harness.database.prisma.tagging.count();
    expectProblem(await tag(randomUUID(), [buyer.tagIds[0]]), 404, "not_found");
    const unknownTag = await tag(orderId, [buyer.tagIds[0], buyer.tagIds[1], randomUUID()]);
    expectProblem(unknownTag, 422, "validation_failed", [["tag_ids[2]", "not_found"]]);
    expect(await harness.database.prisma.tagging.count()).toBe(before);
  });

  it("does not tag records that are not taggable: suppliers, tags, delivery sites, users nobody created", async () => {
    const orphanUser = randomUUID();
    await harness.database.prisma.supplierUser.create({
      data: {
        id: orphanUser,
        supplierId: buyer.supplierId,
        contactEmail: "orphan@example.com",
        contactEmailKey: "orphan@example.com",
      },
    });
    for (const id of [
      buyer.supplierId,
      buyer.tagIds[0] ?? "",
      buyer.deliverySiteId,
      buyer.buyerId,
      orphanUser,
    ]) {
      expectProblem(await tag(id, [buyer.tagIds[0]]), 404, "not_found");
    }
  });

  it("keeps each record's tags apart", async () => {
    const [t0, t1, t2] = buyer.tagIds;
    const [first = "", second = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-02-03") },
      { createdAt: new Date("2025-02-04") },
    ]);
    await tag(first, [t0, t1]);
    const response = await tag(second, [t2]);
    expect(tagIdsOf(response.body)).toEqual([t2]);
  });
});
