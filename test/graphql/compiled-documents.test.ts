// Persisted queries answered by compiled reads, as a front end sends them: a
// manifest document by its id, or a document registered by its hash. The
// answer is the one execution gives, byte for byte, from one statement;
// /metrics says how each manifest document runs, and a request the compiled
// read refuses is executed and answered as always.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const ORDERS = `query Orders($first: Int, $after: String) {
  orders(first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { node { id databaseId orderStatus priceType quantity priceTotal currency placedAt createdAt
      supplier { id name } deliverySite { siteName address { city } } resourceValues { provider value } } }
    page: pageInfo { more: hasNextPage hasPreviousPage startCursor __typename }
  }
}`;
const ORDER = "query Order($id: UUID!) { order(id: $id) { id orderReference quantity orderStatus } }";
const COUNTED = "query Counted { orders(first: 2) { totalCount edges { node { id } } } }";

let harness: TestApp;
let buyer: SeededBuyer;
let other: SeededBuyer;

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "bpa-compiled-documents-"));
  const path = join(directory, "persisted-documents.json");
  writeFileSync(
    path,
    JSON.stringify(Object.fromEntries([ORDERS, ORDER, COUNTED].map((text) => [sha256(text), text]))),
  );
  const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path });
  harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
  buyer = await seedBuyer(harness.database, "Compiled documents");
  other = await seedBuyer(harness.database, "Other buyer");
  await seedOrders(
    harness.database,
    buyer,
    [1, 2, 3, 4, 5].map((day) => ({
      createdAt: new Date(Date.UTC(2025, 0, day, 0, 0, 0, day * 7)),
      placedAt: day % 2 === 0 ? null : new Date(Date.UTC(2025, 1, day)),
      resourceValues: day === 3 ? [] : [{ provider: "erp", value: `E-"${day}"\u00e9` }],
    })),
  );
  // Amounts past a float's digits, and a trailing zero the Decimal scalar drops.
  await harness.database.prisma.order.updateMany({
    where: { buyerId: buyer.buyerId },
    data: { quantity: "12345678901234.567890" },
  });
  await seedOrders(harness.database, other, [{ createdAt: new Date(Date.UTC(2025, 0, 9)) }]);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

/** The response's text, and its `data` as the text before `extensions` (which counts the caller's requests). */
async function post(
  body: unknown,
  key = buyer.apiKey,
): Promise<{ status: number; text: string; data: string }> {
  const response = await harness.app.fetch(GRAPHQL, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const end = text.indexOf(',"extensions":');
  return { status: response.status, text, data: end < 0 ? text : `${text.slice(0, end)}}` };
}

const byId = (query: string, variables: Record<string, unknown> = {}) =>
  post({ documentId: sha256(query), variables });

describe("persisted queries answered by compiled reads", () => {
  it("/metrics says which manifest documents are compiled, and why the others are executed", async () => {
    const metrics = await (await harness.app.fetch("http://localhost/metrics")).text();
    expect(metrics).toContain(
      `graphql_document_execution{document="${sha256(ORDERS)}",operation="Orders",execution="compiled",reason=""} 1`,
    );
    expect(metrics).toContain(
      `graphql_document_execution{document="${sha256(ORDER)}",operation="Order",execution="compiled",reason=""} 1`,
    );
    expect(metrics).toMatch(
      new RegExp(
        `graphql_document_execution\\{document="${sha256(COUNTED)}",operation="Counted",execution="executed",reason="[^"]*totalCount[^"]*"\\} 1`,
      ),
    );
  });

  it("answers a page, page after page, with the bytes execution gives, from one statement", async () => {
    let after: string | null = null;
    for (let page = 0; page < 3; page += 1) {
      const variables = { first: 2, after };
      const executed = await post({ query: ORDERS, variables });
      harness.resetQueries();
      const compiled = await byId(ORDERS, variables);
      const reads = harness.queries.filter((sql) => !/api_keys|rate_limit_windows/.test(sql));
      expect(compiled.status).toBe(200);
      expect(compiled.data).toBe(executed.data);
      expect(reads, "one statement, which reads the orders").toHaveLength(1);
      expect(reads[0]).toMatch(/FROM "orders"/);
      const parsed = JSON.parse(compiled.text) as {
        data: { orders: { pageInfo: { endCursor: string | null } } };
        extensions: { rateLimit: unknown; cost: unknown };
      };
      expect(parsed.extensions).toMatchObject({ rateLimit: expect.any(Object), cost: expect.any(Object) });
      after = parsed.data.orders.pageInfo.endCursor;
    }
  });

  it("answers a record, and null for another buyer's, as execution does", async () => {
    const page = JSON.parse((await byId(ORDERS, { first: 1 })).text) as {
      data: { orders: { edges: { node: { databaseId: string } }[] } };
    };
    const id = page.data.orders.edges[0]?.node.databaseId;
    expect((await byId(ORDER, { id })).data).toBe((await post({ query: ORDER, variables: { id } })).data);
    expect((await byId(ORDER, { id })).data).toContain('"quantity":"12345678901234.56789"');
    const asOther = await post({ documentId: sha256(ORDER), variables: { id } }, other.apiKey);
    expect(asOther.data).toBe('{"data":{"order":null}}');
  });

  it("answers a document registered by its hash from its compiled read too", async () => {
    const query = "query Registered { orders(first: 3) { edges { node { id orderStatus } } } }";
    const executed = await post({ query });
    const registered = await post({
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });
    harness.resetQueries();
    const again = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
    expect(registered.data).toBe(executed.data);
    expect(again.data).toBe(executed.data);
    expect(harness.queries.filter((sql) => /FROM "orders"/.test(sql))).toHaveLength(1);
  });

  it("executes a request its compiled read refuses, and answers what execution answers", async () => {
    const variables = { first: 2, after: "not a cursor" };
    const compiled = await byId(ORDERS, variables);
    const executed = await post({ query: ORDERS, variables });
    expect(compiled.data).toBe(executed.data);
    expect(JSON.parse(compiled.text)).toMatchObject({
      errors: [{ extensions: { code: "VALIDATION_FAILED" } }],
    });
  });

  it("executes a document it does not compile, with the same answer as sent in full", async () => {
    const compiled = await byId(COUNTED);
    expect(compiled.data).toBe((await post({ query: COUNTED })).data);
    expect(compiled.data).toContain('"totalCount":5');
  });
});
