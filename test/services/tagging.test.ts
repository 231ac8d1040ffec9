// Tagging rules (docs/design/decisions.md, "Taggings") on the service, with
// a real database but no HTTP: which records a buyer may tag, idempotent
// attaching, and tags named by their position when they are not the buyer's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.js";
import { attachTags, detachTags } from "../../src/services/tagging.js";
import { type SeededBuyer, seedOrders, twoBuyers } from "../support/seed.js";
import type { TestDatabase } from "../support/test-database.js";

let database: TestDatabase;
let buyer: SeededBuyer;
let other: SeededBuyer;
let viewer: Viewer;

beforeAll(async () => {
  ({ database, buyer, other, viewer } = await twoBuyers("Tagging Buyer"));
});

afterAll(async () => {
  await database.close();
});

async function tagsOn(taggableId: string): Promise<string[]> {
  const rows = await database.prisma.tagging.findMany({ where: { taggableId }, select: { tagId: true } });
  return rows.map((row) => row.tagId).sort();
}

async function supplierUser(createdByBuyerId: string | null): Promise<string> {
  const id = randomUUID();
  const email = `${id}@supplier.example`;
  await database.prisma.supplierUser.create({
    data: {
      id,
      supplierId: buyer.supplierId,
      firstName: "Sam",
      lastName: "Supplier",
      contactEmail: email,
      contactEmailKey: email,
      createdByBuyerId,
    },
  });
  return id;
}

describe("attachTags", () => {
  it("names the type of each kind of record the buyer owns", async () => {
    const [orderId = ""] = await seedOrders(database, buyer, [{ createdAt: new Date() }]);
    const userId = await supplierUser(buyer.buyerId);
    const cases: [string, string][] = [
      [buyer.buyerProductId, "BuyerProduct"],
      [orderId, "Order"],
      [buyer.approvalId, "BuyerProductApproval"],
      [userId, "SupplierUser"],
    ];
    for (const [id, type] of cases) {
      const outcome = await attachTags(database.prisma, viewer, id, [buyer.tagIds[0] ?? ""]);
      expect(outcome).toMatchObject({ kind: "attached", taggableType: type });
    }
  });

  it("attaching a tag already on the record is no error, and only new tags count as added", async () => {
    const [first = "", second = ""] = buyer.tagIds;
    const [orderId = ""] = await seedOrders(database, buyer, [{ createdAt: new Date() }]);
    expect(await attachTags(database.prisma, viewer, orderId, [first])).toEqual({
      kind: "attached",
      taggableType: "Order",
      addedTagIds: [first],
    });
    expect(await attachTags(database.prisma, viewer, orderId, [first, second, second])).toEqual({
      kind: "attached",
      taggableType: "Order",
      addedTagIds: [second],
    });
    expect(await tagsOn(orderId)).toEqual([first, second].sort());
  });

  it("another buyer's record is not found, and stays untagged", async () => {
    const outcome = await attachTags(database.prisma, viewer, other.buyerProductId, [buyer.tagIds[0] ?? ""]);
    expect(outcome).toEqual({ kind: "taggable_not_found" });
    expect(await tagsOn(other.buyerProductId)).toEqual([]);
  });

  it("a supplier user can be tagged only by the buyer that created it", async () => {
    const byOther = await supplierUser(other.buyerId);
    const byOperator = await supplierUser(null);
    for (const id of [byOther, byOperator]) {
      expect(await attachTags(database.prisma, viewer, id, [buyer.tagIds[0] ?? ""])).toEqual({
        kind: "taggable_not_found",
      });
    }
  });

  it("names every tag that is not the buyer's by its position, and attaches none", async () => {
    const [orderId = ""] = await seedOrders(database, buyer, [{ createdAt: new Date() }]);
    const outcome = await attachTags(database.prisma, viewer, orderId, [
      buyer.tagIds[0] ?? "",
      other.tagIds[0] ?? "",
      randomUUID(),
    ]);
    expect(outcome).toEqual({ kind: "unknown_tags", indexes: [1, 2] });
    expect(await tagsOn(orderId)).toEqual([]);
  });
});

describe("detachTags", () => {
  it("removes the given tags, and a tag not on the record is no error", async () => {
    const [first = "", second = "", third = ""] = buyer.tagIds;
    const [orderId = ""] = await seedOrders(database, buyer, [{ createdAt: new Date() }]);
    await attachTags(database.prisma, viewer, orderId, [first, second]);
    expect(await detachTags(database.prisma, viewer, orderId, [second, third])).toEqual({
      kind: "detached",
      taggableType: "Order",
      removedTagIds: [second],
    });
    expect(await tagsOn(orderId)).toEqual([first]);
  });

  it("cannot touch another buyer's record", async () => {
    const otherViewer = { buyerId: other.buyerId, apiKeyId: other.apiKeyId };
    await attachTags(database.prisma, otherViewer, other.approvalId, [other.tagIds[0] ?? ""]);
    expect(await detachTags(database.prisma, viewer, other.approvalId, [other.tagIds[0] ?? ""])).toEqual({
      kind: "taggable_not_found",
    });
    expect(await tagsOn(other.approvalId)).toEqual([other.tagIds[0]]);
  });
});
