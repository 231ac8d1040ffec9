// Money and quantities are numeric(20,6) in the database: GraphQL carries
// them as strings of digits and REST writes the same digits as JSON numbers,
// so no value is rounded on its way out (a float keeps about 15 digits).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { API, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql } from "./helpers.js";

// 20 significant digits: a float would print 12345678901234.123.
const TOTAL = "12345678901234.123456";
const SMALL = "0.000001";

describe("exact decimals", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Exact");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
    ]);
    await harness.database.prisma.order.update({
      where: { id: orderId },
      data: { priceTotal: TOTAL, taxAmount: SMALL, quantity: "1000000" },
    });
  }, 60_000);
  afterAll(() => harness.close());

  it("GraphQL returns every stored digit as a string", async () => {
    const { data } = await graphql<{ order: { priceTotal: string; taxAmount: string; quantity: string } }>(
      harness.app,
      "query ($id: UUID!) { order(id: $id) { priceTotal taxAmount quantity } }",
      { key: buyer.apiKey, variables: { id: orderId } },
    );
    expect(data?.order).toEqual({ priceTotal: TOTAL, taxAmount: SMALL, quantity: "1000000" });
  });

  it("REST writes the same digits as JSON numbers, as the contract types them", async () => {
    const response = await harness.app.fetch(`${API}/orders?limit=1`, {
      headers: { "x-api-key": buyer.apiKey },
    });
    const text = await response.text();
    expect(text).toContain(`"price_total":${TOTAL}`);
    expect(text).toContain(`"tax_amount":${SMALL}`);
    expect(text).toContain(`"quantity":1000000,`);
    expect(typeof (JSON.parse(text) as { price_total: unknown }[])[0]?.price_total).toBe("number");
  });
});
