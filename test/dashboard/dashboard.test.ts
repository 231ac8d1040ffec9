// A buyer dashboard built the way a front-end team builds it: documents typed
// by graphql-codegen's client preset from the committed schema.graphql, sent
// by their persisted-document id to a server that accepts only the manifest
// codegen wrote. The types are checked by `npm run typecheck`; the results here.
import { readFileSync } from "node:fs";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { renderDashboardTypes } from "../../tools/dashboard-types.js";
import { GRAPHQL } from "../graphql/helpers.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { OrdersTable } from "./screens.js";

const MANIFEST = "test/generated/dashboard/persisted-documents.json";

interface Persisted {
  __meta__?: { hash?: string };
}

describe("the buyer dashboard over persisted, codegen-typed documents", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

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
    await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 5 }, (_, index) => ({ createdAt: new Date(Date.UTC(2026, 0, index + 1)) })),
    );
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

  it("orders table: a first page with its total and a cursor to the next", async () => {
    const { orders } = await run(OrdersTable, { first: 2 });
    expect(orders.totalCount).toBe(5);
    expect(orders.edges).toHaveLength(2);
    expect(orders.pageInfo.hasNextPage).toBe(true);
    // Exact decimals arrive as strings.
    expect(typeof orders.edges[0]?.node.priceTotal).toBe("string");
  });
});
