// Order statuses a client can move to, and the updateOrder inputs a generated
// client sends: names it can pass back, blank references, explicit nulls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData } from "./helpers.js";

const UPDATE = `mutation ($id: UUID!, $input: UpdateOrderInput!) {
  updateOrder(id: $id, input: $input) {
    orderStatus placedAt purchaseOrderReference resourceValues { provider value }
  }
}`;

describe("updateOrder inputs and Order.allowedNextStatuses", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Statuses");
  });
  afterAll(async () => {
    await harness?.close();
  });

  const newOrder = async (orderStatus: "quote_selected" | "shipped" | "delivered" = "quote_selected") => {
    const [id = ""] = await seedOrders(harness.database, buyer, [
      {
        createdAt: new Date(Date.UTC(2025, 0, 1)),
        orderStatus,
        purchaseOrderReference: "PO-KEEP",
        resourceValues: [{ provider: "erp", value: "E-1" }],
      },
    ]);
    return id;
  };
  const eventCount = (orderId: string) => harness.database.prisma.orderEvent.count({ where: { orderId } });

  it("lists the statuses an order may move to next, in GraphQL's names, and none once delivered", async () => {
    const [fresh, shipped, delivered] = [
      await newOrder(),
      await newOrder("shipped"),
      await newOrder("delivered"),
    ];
    const read = async (id: string) =>
      (
        await graphqlData<{ order: { allowedNextStatuses: string[] } }>(
          harness.app,
          `query ($id: UUID!) { order(id: $id) { allowedNextStatuses } }`,
          { key: buyer.apiKey, variables: { id } },
        )
      ).order.allowedNextStatuses;
    expect(await read(fresh)).toEqual([
      "ORDER_PLACED",
      "ORDER_CONFIRMED",
      "IN_TRANSIT",
      "IN_WAREHOUSE",
      "SHIPPED",
      "IN_PORT",
      "DELIVERED",
    ]);
    expect(await read(shipped)).toEqual(["IN_TRANSIT", "IN_WAREHOUSE", "IN_PORT", "DELIVERED"]);
    expect(await read(delivered)).toEqual([]);
  });

  it("names the allowed statuses of INVALID_TRANSITION as OrderStatus values a client can send back", async () => {
    const id = await newOrder("shipped");
    const refused = await graphql(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: "ORDER_PLACED" } },
    });
    const allowed = refused.errors?.[0]?.extensions?.allowedStatuses as string[];
    expect(refused.errors?.[0]?.extensions?.code).toBe("INVALID_TRANSITION");
    expect(allowed).toEqual(["IN_TRANSIT", "IN_WAREHOUSE", "IN_PORT", "DELIVERED"]);
    // The message and the move refused speak GraphQL's names too.
    expect(refused.errors?.[0]?.message).toBe(
      "An order cannot move from SHIPPED to ORDER_PLACED; allowed next statuses: IN_TRANSIT, IN_WAREHOUSE, IN_PORT, DELIVERED",
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      fromStatus: "SHIPPED",
      toStatus: "ORDER_PLACED",
    });
    // Sent back as they are, each is accepted.
    const moved = await graphqlData<{ updateOrder: { orderStatus: string } }>(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: allowed[0] } },
    });
    expect(moved.updateOrder.orderStatus).toBe("IN_TRANSIT");
  });

  it("keeps the contract's spelling of allowed_statuses in REST", async () => {
    const id = await newOrder("shipped");
    const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
      key: buyer.apiKey,
      body: { order_status: "order_placed" },
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: "invalid_transition",
      detail:
        "An order cannot move from shipped to order_placed; allowed next statuses: in_transit, in_warehouse, in_port, delivered",
      allowed_statuses: ["in_transit", "in_warehouse", "in_port", "delivered"],
    });
  });

  it("refuses a blank purchase or supplier order reference with VALIDATION_FAILED and stores nothing", async () => {
    const id = await newOrder();
    for (const field of ["purchaseOrderReference", "supplierOrderReference"]) {
      const response = await graphql(harness.app, UPDATE, {
        key: buyer.apiKey,
        variables: { id, input: { [field]: "   " } },
      });
      expect(response.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["input", field], code: "required" }],
      });
    }
    const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id } });
    expect(order).toMatchObject({ purchaseOrderReference: "PO-KEEP", supplierOrderReference: null });
    expect(await eventCount(id)).toBe(0);
  });

  it("refuses a blank reference in REST too, with the contract's field name", async () => {
    const id = await newOrder();
    const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
      key: buyer.apiKey,
      body: { purchase_order_reference: "  " },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      errors: [{ field: "purchase_order_reference", code: "required", message: "must not be blank" }],
    });
    expect(await eventCount(id)).toBe(0);
  });

  it("reads null for orderStatus, placedAt and resourceValues as 'unchanged', as the nullable schema says", async () => {
    const id = await newOrder();
    const data = await graphqlData<{ updateOrder: Record<string, unknown> }>(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: {
        id,
        input: { orderStatus: null, placedAt: null, resourceValues: null, purchaseOrderReference: "PO-NEW" },
      },
    });
    expect(data.updateOrder).toMatchObject({
      orderStatus: "QUOTE_SELECTED",
      placedAt: null,
      purchaseOrderReference: "PO-NEW",
      resourceValues: [{ provider: "erp", value: "E-1" }],
    });
    expect(await eventCount(id)).toBe(1);
    // All null: nothing changes, nothing is recorded.
    await graphqlData(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: null, placedAt: null, resourceValues: null } },
    });
    expect(await eventCount(id)).toBe(1);
  });

  it("still refuses those nulls in REST, whose contract does not allow them", async () => {
    const id = await newOrder();
    for (const field of ["order_status", "placed_at", "resource_values"]) {
      const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
        key: buyer.apiKey,
        body: { [field]: null },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        detail: `${field} must not be null`,
        errors: [{ field, code: "invalid", message: "must not be null" }],
      });
    }
    expect(await eventCount(id)).toBe(0);
  });
});
