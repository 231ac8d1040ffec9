// A buyer dashboard built the way a front-end team builds it: documents typed
// by graphql-codegen's client preset from the committed schema.graphql, sent
// by their persisted-document id to a server that accepts only the manifest
// codegen wrote. The types are checked by `npm run typecheck`; the results here.
import { readFileSync } from "node:fs";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
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

describe("the buyer dashboard over persisted, codegen-typed documents", () => {
  let harness: TestApp;
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
    const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST, GRAPHQL_PERSISTED_ONLY: "true" });
    harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
    buyer = await seedBuyer(harness.database, "Dashboard");
    orderIds = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 5 }, (_, index) => ({ createdAt: new Date(Date.UTC(2026, 0, index + 1)) })),
    );
    await seedBuyerProduct(harness.database, buyer, "Dashboard Shea Butter");
  }, 60_000);
  afterAll(() => harness.close());

  it("the generated types and manifest match the schema and the screens (run `npm run graphql:types`)", async () => {
    for (const { filename, content } of await renderDashboardTypes()) {
      expect(
        readFileSync(filename, "utf8") === content,
        `${filename} is stale: run \`npm run graphql:types\``,
      ).toBe(true);
    }
  });

  it("orders table: pages through every order exactly once, each with its total", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const { orders }: OrdersTableQuery = await run(OrdersTable, { first: 2, after });
      expect(orders.totalCount).toBe(5);
      seen.push(...orders.edges.map(({ node }) => node.id));
      expect(orders.edges[0]?.node.supplier.name).toBeTruthy();
      // Exact decimals arrive as strings.
      expect(orders.edges[0]?.node.priceTotal).toBe("10340.5");
      after = orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null;
    } while (after);
    expect(new Set(seen).size).toBe(5);
    // `id` is the global ID a front-end keys its cache on.
    expect(seen).toEqual(orderIds.map(orderGlobalId).toReversed());
  });

  it("order detail: the order, its links, and its history after an update", async () => {
    // The id the orders table showed, passed back as it is.
    const id = orderGlobalId(orderIds[0] ?? "");
    const { updateOrder } = await run(UpdateOrder, {
      id,
      input: { orderStatus: "ORDER_PLACED", purchaseOrderReference: "PO-DASH-1" },
    });
    expect(updateOrder).toMatchObject({
      id,
      orderStatus: "ORDER_PLACED",
      purchaseOrderReference: "PO-DASH-1",
    });
    const { order } = await run(OrderDetail, { id });
    expect(order?.orderStatus).toBe("ORDER_PLACED");
    expect(order?.buyerProduct?.rawMaterialName).toBeTruthy();
    const changes = order?.events.edges[0]?.node.changes.map(({ field }) => field);
    expect(changes).toEqual(expect.arrayContaining(["orderStatus", "purchaseOrderReference"]));
  });

  it("products with approvals: each product with its first approvals and their count", async () => {
    const { buyerProducts } = await run(ProductsWithApprovals, { first: 10 });
    expect(buyerProducts.totalCount).toBe(2);
    const withApproval = buyerProducts.edges.find(({ node }) => node.approvals.totalCount > 0);
    expect(withApproval?.node.approvals.edges[0]?.node.supplierName).toBeTruthy();
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
