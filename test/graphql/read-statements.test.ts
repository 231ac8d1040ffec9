// The SQL a GraphQL list query costs: its page with every nested object and
// its count in one statement, sent on its own: no transaction or
// session setting around them. The query's time limit is a setting of the
// read connections themselves (test/graphql/cost.test.ts holds that it still
// stops the SQL on PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { graphqlData, type Page } from "./helpers.js";

const ORDER_FIELDS = `id orderReference orderStatus quantity priceTotal
  supplier { id name } product { id } buyerProduct { id } deliverySite { id } orderType { id }`;

const TAGGED_FIELDS = "id tags { name tagGroup { name } } buyerProduct { approvalCounts { total approved } }";

describe("SQL statements per GraphQL query", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Counted");
    await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 100 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, index)) })),
    );
    // Two tags on every order.
    const orders = await harness.database.prisma.order.findMany({ select: { id: true } });
    await harness.database.prisma.tagging.createMany({
      data: orders.flatMap(({ id }) =>
        buyer.tagIds.slice(0, 2).map((tagId) => ({
          tagId,
          taggableType: "Order" as const,
          taggableId: id,
          buyerId: buyer.buyerId,
        })),
      ),
    });
    // The first request of a key also stamps last_used_at beside the response.
    await graphqlData(harness.app, "{ viewer { buyer { id } } }", { key: buyer.apiKey });
    await eventually(
      async () =>
        (await harness.database.prisma.apiKey.findUniqueOrThrow({ where: { id: buyer.apiKeyId } }))
          .lastUsedAt,
    );
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** The statements one query sent, and how many edges it answered. */
  async function statementsOf(query: string): Promise<{ all: string[]; edges: number }> {
    harness.resetQueries();
    const data = await graphqlData<{ orders: Page<{ id: string }> }>(harness.app, query, {
      key: buyer.apiKey,
    });
    // The rate limiter sweeps old windows on a random one request in 500; that is not the query's cost.
    const all = harness.queries.filter((sql) => !/DELETE FROM rate_limit_windows/i.test(sql));
    return { all, edges: data.orders.edges.length };
  }
  const admission = (sql: string) => /api_keys/.test(sql);
  const transactionOrSetting = (sql: string) =>
    /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SET)\b/i.test(sql);

  it("reads orders(first: 100) with every nested object in one statement besides the key's admission", async () => {
    const page = await statementsOf(`{ orders(first: 100) { edges { node { ${ORDER_FIELDS} } } } }`);
    expect(page.edges).toBe(100);
    expect(page.all.filter(transactionOrSetting)).toEqual([]);
    expect(page.all.filter((sql) => !admission(sql))).toHaveLength(1);
    expect(page.all).toHaveLength(2);
  });

  it("reads every order's tags and its product's approval counts in the page's statement", async () => {
    const page = await statementsOf(`{ orders(first: 100) { edges { node { ${TAGGED_FIELDS} } } } }`);
    expect(page.edges).toBe(100);
    expect(page.all.filter((sql) => !admission(sql))).toHaveLength(1);
  });

  it("executes tags and approval counts in as many statements for 100 orders as for 10", async () => {
    // matchProduct is a root field the planner leaves to execution, and the whole query with it.
    const executed = (first: number) =>
      statementsOf(
        `{ matchProduct(productType: OTHER, rawMaterialName: "Glycerin") { score } orders(first: ${first}) { edges { node { ${TAGGED_FIELDS} } } } }`,
      );
    const few = await executed(10);
    const many = await executed(100);
    expect(many.edges).toBe(100);
    expect(many.all.length).toBe(few.all.length);
  });

  it("counts the list in the page's statement when totalCount is asked for", async () => {
    const counted = await statementsOf(
      `{ orders(first: 100) { totalCount edges { node { ${ORDER_FIELDS} } } } }`,
    );
    expect(counted.edges).toBe(100);
    expect(counted.all.filter(transactionOrSetting)).toEqual([]);
    expect(counted.all.filter((sql) => !admission(sql))).toHaveLength(1);
  });
});
