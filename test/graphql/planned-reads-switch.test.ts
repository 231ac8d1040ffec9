// GRAPHQL_PLANNED_READS=false: every query is executed, none answered by its
// planned read, with the same answer; an operator (or the bench) can compare
// the two, or rule the planner out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

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
