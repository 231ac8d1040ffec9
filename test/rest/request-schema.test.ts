// decisions.md §3 "Requests and responses": the request schema is the
// server's rule. Null only where the contract clears a field with it, whole
// numbers of 32 bits refused as out of range, and an unknown query parameter
// refused rather than ignored, so that a misspelled filter never answers everything.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEventData } from "../support/events.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, listBody } from "./helpers.js";

describe("the request schema as the server applies it", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let placed: string;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Request schema");
    [placed = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-04-01T10:00:00.000Z"), orderStatus: "order_placed" },
      { createdAt: new Date("2025-04-02T10:00:00.000Z"), orderStatus: "delivered" },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("refuses a misspelled filter with 400 unknown_parameter naming the parameters the operation takes", async () => {
    const misspelled = await api("GET", "/orders?status=order_placed");
    const problem = expectProblem(misspelled, 400, "unknown_parameter");
    expect(problem.detail).toBe(
      "Unknown query parameter `status`: GET /api/public/buyer/v1/orders takes `limit`, `cursor`, `created_at_from`, `created_at_to`, `order_status[]`",
    );
    // The contract's forms of a list parameter are all known.
    for (const query of ["order_status[]=order_placed", "order_status=order_placed"]) {
      const listed = await api("GET", `/orders?${query}`);
      expect(listBody(listed).map((order) => order.id)).toEqual([placed]);
    }
    const onCreate = await api("POST", "/buyer_products?dry_run=true", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
    });
    expect(expectProblem(onCreate, 400, "unknown_parameter").detail).toBe(
      "Unknown query parameter `dry_run`: POST /api/public/buyer/v1/buyer_products takes no query parameters",
    );
    // Refused before anything is written.
    const products = await harness.database.prisma.buyerProduct.count({ where: { buyerId: buyer.buyerId } });
    expect(products).toBe(1);
  });

  it("refuses null in an optional field with 422 naming it, on a create as on an update", async () => {
    const create = await api("POST", "/buyer_products", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
      annual_usage: null,
      active: null,
      document_types: null,
    });
    expectProblem(create, 422, "validation_failed", [
      ["annual_usage", "invalid"],
      ["active", "invalid"],
      ["document_types", "invalid"],
    ]);
    const endpoint = await api("POST", "/webhook_endpoints", {
      url: "https://93.184.215.14/hooks",
      enabled_events: ["*"],
      description: null,
    });
    expectProblem(endpoint, 422, "validation_failed", [["description", "invalid"]]);
  });

  it("refuses redelivering to endpoint_id null, rather than sending the event to every endpoint", async () => {
    for (const url of ["https://93.184.215.14/a", "https://93.184.215.14/b"]) {
      const created = await api("POST", "/webhook_endpoints", { url, enabled_events: ["*"] });
      expect(created.status).toBe(201);
    }
    const id = randomUUID();
    const data = JSON.stringify(await orderEventData(harness.app, buyer.apiKey, placed, "order.updated"));
    await harness.database.prisma.webhookEvent.create({
      data: { id, buyerId: buyer.buyerId, type: "order.updated", createdAt: new Date(), data },
    });
    const refused = await api("POST", `/events/${id}/redeliver`, { endpoint_id: null });
    expectProblem(refused, 422, "validation_failed", [["endpoint_id", "invalid"]]);
    expect(await harness.database.prisma.webhookDelivery.count({ where: { eventId: id } })).toBe(0);
  });

  it("refuses a whole number past 32 bits as out of range, not as malformed", async () => {
    const response = await api("POST", "/buyer_products", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
      annual_usage: 2 ** 31,
      target_approvals: 2 ** 31 - 1,
    });
    const problem = expectProblem(response, 422, "validation_failed", [["annual_usage", "out_of_range"]]);
    expect(problem.errors?.[0]?.message).toBe("must be at most 2147483647");
  });
});
