// GRAPHQL_PLANNED_READS=false: every query is executed, none answered by its
// planned read, with the same answer; an operator (or the bench) can compare
// the two, or rule the planner out. The same two apps show that decimals keep
// every digit, planned and executed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { API, createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL, graphql } from "./helpers.js";

const ORDERS = `query Orders($first: Int) {
  orders(first: $first) { edges { node { id orderStatus priceTotal supplier { name } } } }
}`;

let planned: TestApp;
let executed: TestApp;
let buyers: Map<TestApp, SeededBuyer>;

async function seeded(app: TestApp): Promise<SeededBuyer> {
  const buyer = await seedBuyer(app.database, "Planned reads switch");
  await seedOrders(
    app.database,
    buyer,
    [1, 2, 3].map((day) => ({ createdAt: new Date(Date.UTC(2025, 0, day)) })),
  );
  return buyer;
}

beforeAll(async () => {
  planned = await createTestApp();
  executed = await createTestApp({ graphql: { plannedReads: false } });
  buyers = new Map([
    [planned, await seeded(planned)],
    [executed, await seeded(executed)],
  ]);
}, 60_000);

afterAll(async () => {
  await planned?.close();
  await executed?.close();
});

/** The orders page's rows (ids differ between the two databases), and the statements that read orders. */
async function ordersPage(harness: TestApp) {
  const buyer = buyers.get(harness);
  if (!buyer) throw new Error("no buyer");
  harness.resetQueries();
  const response = await harness.app.fetch(GRAPHQL, {
    method: "POST",
    headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ query: ORDERS, variables: { first: 10 } }),
  });
  const body = (await response.json()) as {
    data: { orders: { edges: { node: { orderStatus: string; priceTotal: string } }[] } };
  };
  const rows = body.data.orders.edges.map(({ node }) => [node.orderStatus, node.priceTotal]);
  const orderReads = harness.queries.filter((sql) => /"orders"/.test(sql));
  return { status: response.status, rows, orderReads };
}

async function executedCount(harness: TestApp): Promise<number> {
  const text = await (await harness.app.fetch("http://localhost/metrics")).text();
  return [...text.matchAll(/^graphql_executed_queries_total\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

describe("GRAPHQL_PLANNED_READS", () => {
  it("off, a query the planner covers is executed, with the same rows as its planned read", async () => {
    const byPlan = await ordersPage(planned);
    const byExecution = await ordersPage(executed);
    expect(byPlan.status).toBe(200);
    expect(byExecution.status).toBe(200);
    expect(byExecution.rows).toEqual(byPlan.rows);
    expect(byPlan.rows).toHaveLength(3);
    // Each reads the page with one statement, but not the same one: Prisma's, not the planner's.
    expect(byPlan.orderReads).toHaveLength(1);
    expect(byExecution.orderReads.length).toBeGreaterThan(0);
    expect(byExecution.orderReads).not.toContain(byPlan.orderReads[0]);
    // The planner is not consulted, so no query is counted as refused by it.
    expect(await executedCount(executed)).toBe(0);
  });
});

describe("a nested page selected in both places", () => {
  // `edges { node }` reads the order's approval's buyer product, `nodes` the approval's status: executed,
  // the two selections of the same rows are merged into one query, which must keep both.
  const NESTED = `{ buyerProductApprovals(first: 1) { nodes { orders(first: 2) {
    edges { node { additionalData { product { buyerProductDisplayName } } } }
    nodes { approval { approvalStatus } }
  } } } }`;
  type Answer = {
    buyerProductApprovals: {
      nodes: {
        orders: {
          edges: { node: { additionalData: { product: { buyerProductDisplayName: string | null } } } }[];
          nodes: { approval: { approvalStatus: string } }[];
        };
      }[];
    };
  };

  it("answers each place's fields, planned and executed alike", async () => {
    const answers = await Promise.all(
      [planned, executed].map(async (harness) => {
        const buyer = buyers.get(harness);
        const { data } = await graphql<Answer>(harness.app, NESTED, { key: buyer?.apiKey ?? "" });
        return data?.buyerProductApprovals.nodes[0]?.orders;
      }),
    );
    const [byPlan, byExecution] = answers;
    expect(byPlan?.edges.map(({ node }) => node.additionalData.product.buyerProductDisplayName)).toEqual([
      "Glycerine USP",
      "Glycerine USP",
    ]);
    expect(byPlan?.nodes.map(({ approval }) => approval.approvalStatus)).toEqual(["APPROVED", "APPROVED"]);
    expect(byExecution).toEqual(byPlan);
  });
});

// Money and quantities are numeric(20,6) in the database: GraphQL carries
// them as strings of digits and REST writes the same digits as JSON numbers,
// so no value is rounded on its way out (a float keeps about 15 digits).
// 20 significant digits: a float would print 12345678901234.123.
const TOTAL = "12345678901234.123456";
const SMALL = "0.000001";
// numeric(20,6)'s extremes, read where Prisma joins the row in as JSON (relationJoins).
const MOST = "99999999999999.999999";
const LEAST = "-99999999999999.999999";

const globalId = (type: string, uuid: string) => Buffer.from(`${type}:${uuid}`).toString("base64");

describe("exact decimals", () => {
  let buyer: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(planned.database, "Exact");
    [orderId = ""] = await seedOrders(planned.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
    ]);
    await planned.database.prisma.order.update({
      where: { id: orderId },
      data: { priceTotal: TOTAL, taxAmount: SMALL, quantity: "1000000" },
    });
  });

  it("GraphQL returns every stored digit as a string", async () => {
    const { data } = await graphql<{ order: { priceTotal: string; taxAmount: string; quantity: string } }>(
      planned.app,
      "query ($id: UUID!) { order(id: $id) { priceTotal taxAmount quantity } }",
      { key: buyer.apiKey, variables: { id: orderId } },
    );
    expect(data?.order).toEqual({ priceTotal: TOTAL, taxAmount: SMALL, quantity: "1000000" });
  });

  it("REST writes the same digits as JSON numbers, as the contract types them", async () => {
    const response = await planned.app.fetch(`${API}/orders?limit=1`, {
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
  let buyer: SeededBuyer;
  let orderId: string;
  const amounts = { priceTotal: MOST, taxAmount: LEAST, quantity: SMALL };

  beforeAll(async () => {
    // Executed by graphql-js over Prisma, not answered by a planned read: the app with planned reads off.
    buyer = await seedBuyer(executed.database, "Exact nodes");
    [orderId = ""] = await seedOrders(executed.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
    ]);
    await executed.database.prisma.order.update({ where: { id: orderId }, data: amounts });
  });

  const read = async (query: string) => {
    const { data, errors } = await graphql<Record<string, unknown>>(executed.app, query, {
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
