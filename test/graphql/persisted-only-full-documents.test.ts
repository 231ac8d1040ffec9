// GRAPHQL_PERSISTED_ONLY with the manifest graphql-codegen's client preset wrote: a client that
// sends a manifest document in full, as written in its source or as its GraphQL client prints
// it, is served; any other document is refused.
import { readFileSync } from "node:fs";
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { OrderDetail, OrdersTable } from "../dashboard/screens.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

const MANIFEST = "test/generated/dashboard/persisted-documents.json";

/** The OrdersTable document as test/dashboard/screens.ts writes it, a comment and blank lines added. */
const ORDERS_TABLE_SOURCE = `
  # The dashboard's orders table
  query OrdersTable(
    $first: Int, $after: String, $last: Int, $before: String
    $sortKey: OrderSortKeys! = CREATED_AT, $reverse: Boolean! = false, $query: String
  ) {
    orders(first: $first, after: $after, last: $last, before: $before, sortKey: $sortKey, reverse: $reverse, query: $query) {

      totalCount
      nodes { id orderReference orderStatus priceTotal currency placedAt supplier { name } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`;

describe("a manifest document sent in full to a server that accepts only the manifest", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  const send = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await harness.app.fetch(GRAPHQL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
        "x-api-key": buyer.apiKey,
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as {
      data?: Record<string, unknown> | null;
      errors?: { extensions?: { code?: string } }[];
    };
    return { status: response.status, body };
  };

  beforeAll(async () => {
    const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST, GRAPHQL_PERSISTED_ONLY: "true" });
    harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
    buyer = await seedBuyer(harness.database, "Full Documents");
    await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
      { createdAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
  }, 60_000);
  afterAll(() => harness.close());

  it("runs it as the GraphQL client prints it, and as the source writes it", async () => {
    for (const query of [print(OrdersTable), ORDERS_TABLE_SOURCE]) {
      const { status, body } = await send(query, { first: 1 });
      expect(body.errors).toBeUndefined();
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        orders: { totalCount: 2, nodes: [{ orderStatus: expect.any(String) }] },
      });
    }
  });

  it("runs it in the manifest's exact text too", async () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, string>;
    const text = Object.values(manifest).find((document) => document.startsWith("query OrderDetail"));
    const { status, body } = await send(text ?? print(OrderDetail), {
      id: "00000000-0000-4000-8000-000000000000",
    });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data).toEqual({ order: null });
  });

  it("refuses a document that differs from every manifest document, however little", async () => {
    const variants = [
      ORDERS_TABLE_SOURCE.replace("totalCount", "totalCount __typename"),
      ORDERS_TABLE_SOURCE.replace("query OrdersTable(", "query OrdersTableRenamed("),
      ORDERS_TABLE_SOURCE.replace("= CREATED_AT", "= PLACED_AT"),
      "query { orders(first: 1) { totalCount } }",
      "query {",
    ];
    for (const query of variants) {
      const { status, body } = await send(query, { first: 1 });
      expect({ status, code: body.errors?.[0]?.extensions?.code }).toEqual({
        status: 400,
        code: "PERSISTED_QUERY_ONLY",
      });
    }
  });
});
