// A buyer dashboard built the way a front-end team builds it: documents typed
// by graphql-codegen's client preset from the committed schema.graphql, sent
// by their persisted-document id to a server that accepts only the manifest
// codegen wrote. The types are checked by `npm run typecheck`; the results here.
// The same server also runs a manifest document sent in full.
import { readFileSync } from "node:fs";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { createClient } from "graphql-sse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { renderDashboardTypes } from "../../tools/dashboard-types.js";
import type { OrdersTableQuery } from "../generated/dashboard/graphql.js";
import { GRAPHQL } from "../graphql/helpers.js";
import { type SeededBuyer, seedBuyer, seedBuyerProduct, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { OrderDetail, OrdersTable, OrderUpdates, ProductsWithApprovals, UpdateOrder } from "./screens.js";

const MANIFEST = "test/generated/dashboard/persisted-documents.json";

interface Persisted {
  __meta__?: { hash?: string };
}

/** An order's global ID (`Order.id`), as the API writes it. */
const orderGlobalId = (uuid: string) => Buffer.from(`Order:${uuid}`).toString("base64");

// One app for the file, accepting only the manifest codegen wrote.
let harness: TestApp;

beforeAll(async () => {
  const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST, GRAPHQL_PERSISTED_ONLY: "true" });
  harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
}, 60_000);
afterAll(async () => {
  await harness?.close();
});

describe("the buyer dashboard over persisted, codegen-typed documents", () => {
  let buyer: SeededBuyer;
  /** Oldest first. */
  let orderIds: string[];
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, string>;

  /** Runs a typed document by its id, as the client preset's persisted-documents fetcher does. */
  async function run<Result, Variables>(
    document: TypedDocumentNode<Result, Variables>,
    variables: Variables,
  ): Promise<Result> {
    const documentId = (document as Persisted).__meta__?.hash;
    expect(documentId).toMatch(/^sha256:/);
    const response = await harness.app.fetch(GRAPHQL, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({ documentId, variables }),
    });
    const body = (await response.json()) as { data?: Result; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    expect(response.status).toBe(200);
    return body.data as Result;
  }

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Dashboard");
    orderIds = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 5 }, (_, index) => ({ createdAt: new Date(Date.UTC(2026, 0, index + 1)) })),
    );
    await seedBuyerProduct(harness.database, buyer, "Dashboard Shea Butter");
  });

  it("the generated types and manifest match the schema and the screens (run `npm run graphql:types`)", async () => {
    for (const { filename, content } of await renderDashboardTypes()) {
      expect(
        readFileSync(filename, "utf8") === content,
        `${filename} is stale: run \`npm run graphql:types\``,
      ).toBe(true);
    }
  });

  it("orders table: pages through every order exactly once, forwards and backwards", async () => {
    const forwards: string[] = [];
    let after: string | null = null;
    do {
      const { orders }: OrdersTableQuery = await run(OrdersTable, { first: 2, after });
      expect(orders.totalCount).toBe(5);
      forwards.push(...orders.nodes.map((order) => order.id));
      expect(orders.nodes[0]?.supplier.name).toBeTruthy();
      // Exact decimals arrive as strings.
      expect(orders.nodes[0]?.priceTotal).toBe("10340.5");
      after = orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null;
    } while (after);
    // `id` is the global ID a front-end keys its cache on; newest first by default.
    expect(forwards).toEqual(orderIds.map(orderGlobalId).toReversed());

    const backwards: string[] = [];
    let before: string | null = null;
    do {
      const { orders }: OrdersTableQuery = await run(OrdersTable, { last: 2, before });
      backwards.unshift(...orders.nodes.map((order) => order.id));
      before = orders.pageInfo.hasPreviousPage ? orders.pageInfo.startCursor : null;
    } while (before);
    expect(backwards).toEqual(forwards);
  });

  it("orders table: a column sorted the other way, and a search by reference", async () => {
    const oldestFirst = await run(OrdersTable, { first: 10, sortKey: "CREATED_AT", reverse: true });
    expect(oldestFirst.orders.nodes.map((order) => order.id)).toEqual(orderIds.map(orderGlobalId));
    const byReference = await run(OrdersTable, {
      first: 10,
      sortKey: "ORDER_REFERENCE",
      query: "reference:ORD-3",
    });
    expect(byReference.orders.nodes.map((order) => order.orderReference)).toEqual(["ORD-3"]);
    expect(byReference.orders.totalCount).toBe(1);
  });

  it("order detail: the order, where it may go next, its update and its history", async () => {
    // The id the orders table showed, passed back as it is.
    const id = orderGlobalId(orderIds[0] ?? "");
    const before = await run(OrderDetail, { id });
    expect(before.order?.allowedNextStatuses).toContain("ORDER_PLACED");
    const { orderUpdate } = await run(UpdateOrder, {
      id,
      input: { orderStatus: "ORDER_PLACED", purchaseOrderReference: "PO-DASH-1" },
    });
    expect(orderUpdate.userErrors).toEqual([]);
    expect(orderUpdate.order).toMatchObject({
      id,
      orderStatus: "ORDER_PLACED",
      purchaseOrderReference: "PO-DASH-1",
    });
    const { order } = await run(OrderDetail, { id });
    expect(order?.allowedNextStatuses).not.toContain("ORDER_PLACED");
    expect(order?.buyerProduct?.rawMaterialName).toBeTruthy();
    const changes = order?.events.edges[0]?.node.changes.map(({ field }) => field);
    expect(changes).toEqual(expect.arrayContaining(["orderStatus", "purchaseOrderReference"]));

    // Moving back is refused in the payload, with where the order may go, in the schema's spelling.
    const refused = await run(UpdateOrder, { id, input: { orderStatus: "QUOTE_SELECTED" } });
    expect(refused.orderUpdate.order).toBeNull();
    expect(refused.orderUpdate.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_TRANSITION", allowedStatuses: order?.allowedNextStatuses }),
    ]);
  });

  it("products with approvals: each product with its first approvals and counts by status", async () => {
    const { buyerProducts } = await run(ProductsWithApprovals, { first: 10 });
    expect(buyerProducts.totalCount).toBe(2);
    const withApproval = buyerProducts.edges.find(({ node }) => node.approvals.totalCount > 0);
    expect(withApproval?.node.approvals.nodes[0]?.supplierName).toBeTruthy();
    for (const { node } of buyerProducts.edges) {
      expect(node.approvalCounts.total).toBe(node.approvals.totalCount);
    }
    expect(buyerProducts.edges.map(({ node }) => node.rawMaterialName)).toContain("Dashboard Shea Butter");
  });

  it("live updates: the graphql-sse client, carrying the key in a header, receives the order's next change", async () => {
    const id = orderGlobalId(orderIds[1] ?? "");
    const client = createClient({
      url: GRAPHQL,
      headers: { "x-api-key": buyer.apiKey },
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => harness.app.fetch(new Request(input, init)),
      retryAttempts: 0,
    });
    const hash = (OrderUpdates as Persisted).__meta__?.hash ?? "";
    const received = new Promise<unknown>((resolve, reject) => {
      const stop = client.subscribe(
        {
          // graphql-sse sends a document; with its hash the server runs the manifest's copy.
          query: manifest[hash] ?? "",
          variables: { orderId: id },
          extensions: { persistedQuery: { version: 1, sha256Hash: hash.replace("sha256:", "") } },
        },
        {
          next: (value) => {
            stop();
            resolve(value);
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    // The subscription is open once the server has answered its request; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await run(UpdateOrder, { id, input: { purchaseOrderReference: "PO-LIVE-1" } });
    const value = (await received) as {
      data?: { orderUpdated: { order: { id: string; purchaseOrderReference: string } } };
    };
    expect(value.data?.orderUpdated.order).toMatchObject({ id, purchaseOrderReference: "PO-LIVE-1" });
    client.dispose();
  });
});

// GRAPHQL_PERSISTED_ONLY with the same manifest graphql-codegen's client preset wrote: a client that
// sends a manifest document in full, as written in its source or as its GraphQL client prints
// it, is served; any other document is refused.
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
    buyer = await seedBuyer(harness.database, "Full Documents");
    await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2026, 0, 1)) },
      { createdAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
  });

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
