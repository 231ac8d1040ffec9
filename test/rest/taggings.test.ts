// POST /taggings (contract 4.2, decisions.md §3 "Taggings").
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, objectBody } from "./helpers.js";

describe("POST /taggings", () => {
  let harness: TestApp;
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
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Tagging");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-02-02") }]);
    const user = await callApi(harness.app, "POST", `/suppliers/${buyer.supplierId}/users`, {
      key: buyer.apiKey,
      body: { first_name: "Tag", last_name: "Gable", contact_email: "taggable@example.com" },
    });
    supplierUserId = String(objectBody(user).id);
  });
  afterAll(async () => {
    await harness?.close();
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
