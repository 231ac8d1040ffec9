// PATCH /orders/{id} (contract 4.6, decisions.md §3 "Update order" and §5):
// absent fields untouched, null clears, lists replaced, status transitions,
// placed_at stamping and an order event for every change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type OrderSeed,
  type OrderStatusValue,
  type SeededBuyer,
  seedApiKey,
  seedBuyer,
  seedOrders,
} from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, objectBody } from "./helpers.js";

const CREATED_AT = new Date("2025-04-01T08:00:00.000Z");

describe("PATCH /orders/{id}", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  const patch = (id: string, body: unknown, key = buyer.apiKey) =>
    callApi(harness.app, "PATCH", `/orders/${id}`, { key, body });
  const order = async (seed: Partial<OrderSeed> = {}) => {
    const [id] = await seedOrders(harness.database, buyer, [{ createdAt: CREATED_AT, ...seed }]);
    return id ?? "";
  };
  const events = (orderId: string) =>
    harness.database.prisma.orderEvent.findMany({ where: { orderId }, orderBy: { createdAt: "asc" } });
  const get = async (id: string) => {
    const response = await callApi(harness.app, "GET", "/orders?limit=500", { key: buyer.apiKey });
    return (response.body as Record<string, unknown>[]).find((item) => item.id === id);
  };

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Updates");
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe("fields", () => {
    it("leaves absent fields as they are", async () => {
      const id = await order({
        orderStatus: "order_confirmed",
        placedAt: new Date("2025-04-02T00:00:00.000Z"),
        purchaseOrderReference: "PO-1",
        supplierOrderReference: "SO-1",
        resourceValues: [{ provider: "erp", value: "E-1" }],
      });
      const before = await get(id);
      const response = await patch(id, { supplier_order_reference: "SO-2" });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...before,
        supplier_order_reference: "SO-2",
        updated_at: expect.any(String),
      });
      expect(await get(id)).toEqual(response.body);
    });

    it("clears the references when they are set to null", async () => {
      const id = await order({ purchaseOrderReference: "PO-9", supplierOrderReference: "SO-9" });
      const response = await patch(id, { purchase_order_reference: null, supplier_order_reference: null });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ purchase_order_reference: null, supplier_order_reference: null });
      expect(await get(id)).toMatchObject({ purchase_order_reference: null, supplier_order_reference: null });
    });

    it("trims references", async () => {
      const id = await order();
      const response = await patch(id, { purchase_order_reference: "  PO-TRIM  " });
      expect(response.body).toMatchObject({ purchase_order_reference: "PO-TRIM" });
    });

    it("replaces the whole resource_values list, keeping the given order; [] empties it", async () => {
      const id = await order({
        resourceValues: [
          { provider: "erp", value: "E-1" },
          { provider: "wms", value: "W-1" },
        ],
      });
      const replaced = await patch(id, {
        resource_values: [
          { provider: "tms", value: "T-1" },
          { provider: "erp", value: "E-2" },
          { provider: "erp", value: "E-3" },
        ],
      });
      expect(replaced.status).toBe(200);
      expect(objectBody(replaced).resource_values).toEqual([
        { provider: "tms", value: "T-1" },
        { provider: "erp", value: "E-2" },
        { provider: "erp", value: "E-3" },
      ]);
      const emptied = await patch(id, { resource_values: [] });
      expect(objectBody(emptied).resource_values).toEqual([]);
      expect((await get(id))?.resource_values).toEqual([]);
    });

    it("takes placed_at in any offset and returns it in UTC with milliseconds", async () => {
      const id = await order();
      const response = await patch(id, { placed_at: "2025-04-03T12:30:00+02:00" });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ placed_at: "2025-04-03T10:30:00.000Z" });
    });

    it("an empty body, or values equal to the current ones, change nothing and return the order", async () => {
      const id = await order({ purchaseOrderReference: "PO-SAME", orderStatus: "order_placed" });
      const before = await get(id);
      for (const body of [{}, { purchase_order_reference: "PO-SAME", order_status: "order_placed" }]) {
        const response = await patch(id, body);
        expect(response.status).toBe(200);
        expect(response.body).toEqual(before);
      }
      const noBody = await callApi(harness.app, "PATCH", `/orders/${id}`, { key: buyer.apiKey });
      expect(noBody.status).toBe(200);
      expect(noBody.body).toEqual(before);
      expect(await events(id)).toEqual([]);
    });

    it("ignores fields the contract does not let a client change", async () => {
      const id = await order();
      const before = await get(id);
      const response = await patch(id, { currency: "USD", price_total: 1, id: buyer.approvalId, url: "x" });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(before);
    });

    it("moves updated_at forward on a change", async () => {
      const id = await order();
      const response = await patch(id, { purchase_order_reference: "PO-NEW" });
      expect(Date.parse(String(objectBody(response).updated_at))).toBeGreaterThan(CREATED_AT.getTime());
    });
  });

  describe("status transitions", () => {
    it.each<[OrderStatusValue, OrderStatusValue]>([
      ["quote_selected", "order_placed"],
      ["quote_selected", "order_confirmed"],
      ["quote_selected", "delivered"],
      ["order_placed", "order_confirmed"],
      ["order_placed", "in_warehouse"],
      ["order_confirmed", "shipped"],
      ["order_confirmed", "in_port"],
      ["shipped", "in_transit"],
      ["in_transit", "in_port"],
      ["in_port", "in_warehouse"],
      ["in_warehouse", "shipped"],
      ["in_port", "in_transit"],
      ["in_transit", "delivered"],
      ["in_warehouse", "delivered"],
    ])("%s → %s is allowed", async (from, to) => {
      const id = await order({ orderStatus: from });
      const response = await patch(id, { order_status: to });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ order_status: to });
      expect(await get(id)).toMatchObject({ order_status: to });
    });

    const LOGISTICS_AND_DELIVERED = ["in_transit", "in_warehouse", "shipped", "in_port", "delivered"];
    it.each<[OrderStatusValue, OrderStatusValue, string[]]>([
      ["order_placed", "quote_selected", ["order_confirmed", ...LOGISTICS_AND_DELIVERED]],
      ["order_confirmed", "order_placed", LOGISTICS_AND_DELIVERED],
      ["shipped", "order_confirmed", ["in_transit", "in_warehouse", "in_port", "delivered"]],
      ["in_warehouse", "quote_selected", ["in_transit", "shipped", "in_port", "delivered"]],
      ["delivered", "in_transit", []],
      ["delivered", "quote_selected", []],
    ])("%s → %s is 409 invalid_transition, naming the allowed statuses", async (from, to, allowed) => {
      const id = await order({ orderStatus: from, purchaseOrderReference: "PO-KEEP" });
      const response = await patch(id, { order_status: to, purchase_order_reference: "PO-LOST" });
      const problem = expectProblem(response, 409, "invalid_transition");
      expect(problem.allowed_statuses).toEqual(allowed);
      for (const status of allowed) expect(problem.detail).toContain(status);
      expect(await get(id)).toMatchObject({ order_status: from, purchase_order_reference: "PO-KEEP" });
      expect(await events(id)).toEqual([]);
    });
  });

  describe("placed_at", () => {
    it("is set to now when an order moves to order_placed or later while it is null", async () => {
      for (const to of ["order_placed", "order_confirmed", "in_transit", "delivered"]) {
        const id = await order({ orderStatus: "quote_selected" });
        const before = Date.now();
        const response = await patch(id, { order_status: to });
        const after = Date.now();
        const placedAt = Date.parse(String(objectBody(response).placed_at));
        expect(placedAt).toBeGreaterThanOrEqual(before);
        expect(placedAt).toBeLessThanOrEqual(after);
      }
    });

    it("is kept when it is already set, and taken from the request when given", async () => {
      const kept = await order({
        orderStatus: "order_placed",
        placedAt: new Date("2025-04-05T00:00:00.000Z"),
      });
      const keptResponse = await patch(kept, { order_status: "order_confirmed" });
      expect(keptResponse.body).toMatchObject({ placed_at: "2025-04-05T00:00:00.000Z" });
      const given = await order({ orderStatus: "quote_selected" });
      const givenResponse = await patch(given, {
        order_status: "order_placed",
        placed_at: "2025-04-06T07:08:09.010Z",
      });
      expect(givenResponse.body).toMatchObject({ placed_at: "2025-04-06T07:08:09.010Z" });
    });

    it("stays null while the order stays at quote_selected", async () => {
      const id = await order({ orderStatus: "quote_selected" });
      const response = await patch(id, { order_status: "quote_selected", purchase_order_reference: "PO-Q" });
      expect(response.body).toMatchObject({ placed_at: null, order_status: "quote_selected" });
    });
  });

  describe("order events", () => {
    it("records who changed which fields from what to what", async () => {
      const other = await seedApiKey(harness.database, buyer);
      const id = await order({
        orderStatus: "quote_selected",
        purchaseOrderReference: "PO-OLD",
        resourceValues: [{ provider: "erp", value: "E-OLD" }],
      });
      const response = await patch(
        id,
        {
          order_status: "order_placed",
          purchase_order_reference: null,
          supplier_order_reference: "SO-NEW",
          resource_values: [{ provider: "erp", value: "E-NEW" }],
        },
        other.apiKey,
      );
      expect(response.status).toBe(200);
      const placedAt = objectBody(response).placed_at;
      const [event, ...more] = await events(id);
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        orderId: id,
        buyerId: buyer.buyerId,
        apiKeyId: other.apiKeyId,
        changes: {
          order_status: { from: "quote_selected", to: "order_placed" },
          placed_at: { from: null, to: placedAt },
          purchase_order_reference: { from: "PO-OLD", to: null },
          supplier_order_reference: { from: null, to: "SO-NEW" },
          resource_values: {
            from: [{ provider: "erp", value: "E-OLD" }],
            to: [{ provider: "erp", value: "E-NEW" }],
          },
        },
      });
      expect(Object.keys(event?.changes ?? {}).sort()).toEqual([
        "order_status",
        "placed_at",
        "purchase_order_reference",
        "resource_values",
        "supplier_order_reference",
      ]);
    });

    it("records one event per changing request, and none for a request that changes nothing", async () => {
      const id = await order({ orderStatus: "order_placed", placedAt: new Date("2025-04-02T00:00:00.000Z") });
      const changesAfter = async (body: unknown) => {
        await patch(id, body);
        return (await events(id)).map((event) => event.changes);
      };
      const first = { order_status: { from: "order_placed", to: "shipped" } };
      const second = { order_status: { from: "shipped", to: "in_port" } };
      expect(await changesAfter({ order_status: "shipped" })).toEqual([first]);
      expect(await changesAfter({ order_status: "shipped" })).toEqual([first]);
      expect(await changesAfter({ order_status: "in_port" })).toEqual(
        expect.arrayContaining([first, second]),
      );
      expect(await changesAfter({})).toHaveLength(2);
      const recorded = await events(id);
      expect(recorded.map((event) => event.apiKeyId)).toEqual([buyer.apiKeyId, buyer.apiKeyId]);
    });
  });
});
