// Two services called directly, with a real database but no HTTP, on one
// database: updating an order (docs/design/decisions.md, "Update order" and
// "5. Order status transitions"); and tagging (docs/design/decisions.md,
// "Taggings"): which records a buyer may tag, idempotent attaching, and tags
// named by their position when they are not the buyer's. Each test writes
// records of its own.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.js";
import { updateOrder } from "../../src/services/order-update.js";
import { attachTags, detachTags } from "../../src/services/tagging.js";
import { type OrderSeed, type SeededBuyer, seedOrders, twoBuyers } from "../support/seed.js";
import type { TestDatabase } from "../support/test-database.js";

let database: TestDatabase;
let buyer: SeededBuyer;
let other: SeededBuyer;
let viewer: Viewer;

beforeAll(async () => {
  ({ database, buyer, other, viewer } = await twoBuyers("Service Buyer"));
});

afterAll(async () => {
  await database.close();
});

async function newOrder(seed: Partial<OrderSeed> = {}): Promise<string> {
  const [id = ""] = await seedOrders(database, buyer, [
    { createdAt: new Date("2025-01-01T00:00:00Z"), ...seed },
  ]);
  return id;
}

async function stored(id: string) {
  return database.prisma.order.findUniqueOrThrow({ where: { id } });
}

async function eventsOf(id: string) {
  return database.prisma.orderEvent.findMany({ where: { orderId: id } });
}

describe("updateOrder", () => {
  it("delivered cannot go back to shipped, and the refused change writes nothing", async () => {
    const id = await newOrder({ orderStatus: "delivered", placedAt: new Date("2025-01-02T00:00:00Z") });
    const before = await stored(id);
    await expect(
      updateOrder(database.prisma, viewer, id, { orderStatus: "shipped", purchaseOrderReference: "PO-9" }),
    ).rejects.toThrow(/cannot move from delivered to shipped/);
    expect(await stored(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual([]);
  });

  it("a refused change names the statuses the order may move to", async () => {
    const id = await newOrder({ orderStatus: "in_port" });
    await expect(
      updateOrder(database.prisma, viewer, id, { orderStatus: "order_confirmed" }),
    ).rejects.toThrow("allowed next statuses: in_transit, in_warehouse, shipped, delivered");
  });

  it("moving to order_placed or later stamps placed_at once", async () => {
    const id = await newOrder({ orderStatus: "quote_selected" });
    expect((await stored(id)).placedAt).toBeNull();
    await updateOrder(database.prisma, viewer, id, { orderStatus: "order_confirmed" });
    const placedAt = (await stored(id)).placedAt;
    expect(placedAt).toBeInstanceOf(Date);
    await updateOrder(database.prisma, viewer, id, { orderStatus: "shipped" });
    expect((await stored(id)).placedAt).toEqual(placedAt);
  });

  it("records who changed which fields from what to what", async () => {
    const id = await newOrder({
      orderStatus: "shipped",
      placedAt: new Date("2025-01-02T00:00:00Z"),
      purchaseOrderReference: "PO-1",
    });
    const { changes: log } = await updateOrder(database.prisma, viewer, id, {
      orderStatus: "in_transit",
      purchaseOrderReference: null,
      resourceValues: [{ provider: "erp", value: "42" }],
    });
    expect(log).toEqual({
      order_status: { from: "shipped", to: "in_transit" },
      purchase_order_reference: { from: "PO-1", to: null },
      resource_values: { from: [], to: [{ provider: "erp", value: "42" }] },
    });
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({ apiKeyId: buyer.apiKeyId, buyerId: buyer.buyerId, changes: log });
    expect((await stored(id)).purchaseOrderReference).toBeNull();
  });

  it("setting the current values again is a no-op that records no event", async () => {
    const id = await newOrder({ orderStatus: "delivered", supplierOrderReference: "SO-1" });
    const before = await stored(id);
    const { changes: log } = await updateOrder(database.prisma, viewer, id, {
      orderStatus: "delivered",
      supplierOrderReference: "SO-1",
    });
    expect(log).toEqual({});
    expect(await stored(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual([]);
  });

  it("concurrent updates of one order are all applied, each event starting from the value the one before left", async () => {
    const id = await newOrder({ orderStatus: "shipped", purchaseOrderReference: "PO-0" });
    const references = Array.from({ length: 12 }, (_, n) => `PO-${n + 1}`);
    await Promise.all(
      references.map((reference) =>
        updateOrder(database.prisma, viewer, id, { purchaseOrderReference: reference }),
      ),
    );
    const steps = new Map(
      (await eventsOf(id)).map((event) => {
        const change = (event.changes as Record<string, { from: string; to: string }>)
          .purchase_order_reference;
        return [change?.from, change?.to];
      }),
    );
    // A lost update would show as two events from one value, or a chain that ends early.
    const chain = ["PO-0"];
    for (let next = steps.get("PO-0"); next !== undefined; next = steps.get(next)) chain.push(next);
    expect(steps.size).toBe(references.length);
    expect(chain.slice(1).sort()).toEqual([...references].sort());
    expect((await stored(id)).purchaseOrderReference).toBe(chain.at(-1));
  });

  it("another buyer's order is not found and stays as it was", async () => {
    const [id = ""] = await seedOrders(database, other, [
      { createdAt: new Date(), orderStatus: "quote_selected" },
    ]);
    const before = await stored(id);
    await expect(updateOrder(database.prisma, viewer, id, { orderStatus: "delivered" })).rejects.toThrow(
      /not found/,
    );
    expect(await stored(id)).toEqual(before);
  });
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
