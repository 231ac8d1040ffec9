// docs/design/decisions.md §2 "Statuses and codes": a 404 says what was not found.
// A path no operation has names the path and points to the reference; a
// record's 404 names the kind of record, worded the same by a read and a write.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem } from "./helpers.js";

describe("what a REST 404 says", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let othersOrderId: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Not Found");
    other = await seedBuyer(harness.database, "Not Found Other");
    [othersOrderId = ""] = await seedOrders(harness.database, other, [{ createdAt: new Date("2025-01-01") }]);
  });
  afterAll(async () => {
    await harness?.close();
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
