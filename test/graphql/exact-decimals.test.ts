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
// numeric(20,6)'s extremes, read where Prisma joins the row in as JSON (relationJoins).
const MOST = "99999999999999.999999";
const LEAST = "-99999999999999.999999";

const globalId = (type: string, uuid: string) => Buffer.from(`${type}:${uuid}`).toString("base64");

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

describe("exact decimals of records reached through node and nodes, executed", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderId: string;
  const amounts = { priceTotal: MOST, taxAmount: LEAST, quantity: SMALL };

  beforeAll(async () => {
    // Executed by graphql-js over Prisma, not answered by a planned read.
    harness = await createTestApp({ graphql: { plannedReads: false } });
    buyer = await seedBuyer(harness.database, "Exact nodes");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
    ]);
    await harness.database.prisma.order.update({ where: { id: orderId }, data: amounts });
  }, 60_000);
  afterAll(() => harness.close());

  const read = async (query: string) => {
    const { data, errors } = await graphql<Record<string, unknown>>(harness.app, query, {
      key: buyer.apiKey,
    });
    expect(errors).toBeUndefined();
    return data;
  };
  const ORDER = "... on Order { priceTotal taxAmount quantity }";
  const ORDERS = "orders(first: 5) { nodes { priceTotal taxAmount quantity } }";

  it("an order through node(id:) and nodes(ids:) keeps every digit", async () => {
    const id = globalId("Order", orderId);
    expect(await read(`{ node(id: "${id}") { ${ORDER} } }`)).toEqual({ node: amounts });
    expect(await read(`{ nodes(ids: ["${id}"]) { ${ORDER} } }`)).toEqual({ nodes: [amounts] });
  });

  it("an order in a connection below node and nodes keeps every digit", async () => {
    const product = globalId("BuyerProduct", buyer.buyerProductId);
    const approval = globalId("BuyerProductApproval", buyer.approvalId);
    const page = { orders: { nodes: [amounts] } };
    expect(await read(`{ nodes(ids: ["${product}"]) { ... on BuyerProduct { ${ORDERS} } } }`)).toEqual({
      nodes: [page],
    });
    expect(await read(`{ node(id: "${approval}") { ... on BuyerProductApproval { ${ORDERS} } } }`)).toEqual({
      node: page,
    });
    expect(await read(`{ buyerProducts(first: 5) { nodes { ${ORDERS} } } }`)).toEqual({
      buyerProducts: { nodes: [page] },
    });
  });
});
