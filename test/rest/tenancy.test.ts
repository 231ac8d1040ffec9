// decisions.md §1: every read and write is scoped to the key's buyer; another
// buyer's record behaves exactly like one that does not exist.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSupplier, type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, idsOf, objectBody, type ProblemBody } from "./helpers.js";

describe("tenancy between two buyers", () => {
  let harness: TestApp;
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
    harness = await createTestApp();
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
  afterAll(async () => {
    await harness?.close();
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
    expect(await harness.database.prisma.tagging.count()).toBe(0);
  });

  it("refuses another buyer's tags on the key's own record: 422 naming tag_ids[i]", async () => {
    const response = await as(bob, "POST", "/taggings", {
      taggable_id: bob.buyerProductId,
      tag_ids: [bob.tagIds[0], alice.tagIds[0]],
    });
    expectProblem(response, 422, "validation_failed", [["tag_ids[1]", "not_found"]]);
    expect(await harness.database.prisma.tagging.count()).toBe(0);
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
