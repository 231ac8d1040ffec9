// Every query answered by its planned read, however a front end sends it: in
// full, a manifest document by its id, a document registered by its hash, or
// from GraphiQL. The answer is the one graphql-js execution gives, byte for
// byte, from one statement; /metrics says how each manifest document runs,
// and counts by reason each query executed rather than planned.
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execute, parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { TaggableType } from "../../src/domain/tagging.js";
import { encodeGlobalId } from "../../src/schema/global-ids.js";
import { schema } from "../../src/schema/index.js";
import { contextOf } from "../support/planned-reads.js";
import { ORDER_STATUS_VALUES, type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
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
/** Orders beside a root field that is not a read of rows: executed. */
const EXECUTED =
  'query Executed { orders(first: 2) { nodes { id } } matchProduct(productType: OTHER, rawMaterialName: "Glycerin") { score } }';
/** Connections below the root, paged by variables: an approval's orders, its product's approvals, and the product's orders through them. */
const NESTED_PAGES = `query NestedPages($first: Int, $after: String) {
  buyerProductApprovals(first: 2) { nodes { id
    orders(first: $first, after: $after) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id createdAt } } }
    buyerProduct { approvals(first: 2) { totalCount nodes { id } }
      orders(first: $first, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }
  } }
}`;

let harness: TestApp;
let buyer: SeededBuyer;
let other: SeededBuyer;

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "bpa-planned-reads-"));
  const path = join(directory, "persisted-documents.json");
  writeFileSync(
    path,
    JSON.stringify(Object.fromEntries([ORDERS, ORDER, EXECUTED].map((text) => [sha256(text), text]))),
  );
  const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path });
  harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
  buyer = await seedBuyer(harness.database, "Planned reads");
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

/** What graphql-js execution answers, as Yoga writes it (`data` and `errors`, without `extensions`). */
async function executed(
  query: string,
  variables: Record<string, unknown> = {},
  as: SeededBuyer = buyer,
): Promise<string> {
  const result = await execute({
    schema,
    document: parse(query),
    contextValue: contextOf(harness.database, as),
    variableValues: variables,
  });
  return JSON.stringify({ ...(result.errors ? { errors: result.errors } : {}), data: result.data });
}

const byId = (query: string, variables: Record<string, unknown> = {}) =>
  post({ documentId: sha256(query), variables });

/** Statements sent since the last reset, without the API key lookup and the rate limit's. */
const readStatements = () => harness.queries.filter((sql) => !/api_keys|rate_limit_windows/.test(sql));

async function metrics(): Promise<string> {
  return (await harness.app.fetch("http://localhost/metrics")).text();
}

/** How many queries /metrics counts as executed for `reason`. */
async function executedCount(reason: string): Promise<number> {
  const line = new RegExp(`^graphql_executed_queries_total\\{reason="${reason}"\\} (\\d+)$`, "m");
  const count = line.exec(await metrics())?.[1];
  if (count === undefined) throw new Error(`no graphql_executed_queries_total for ${reason}`);
  return Number(count);
}

/** How many queries /metrics counts as executed, for every reason. */
async function executedTotal(): Promise<number> {
  const counts = (await metrics()).matchAll(/^graphql_executed_queries_total\{[^}]*\} (\d+)$/gm);
  return [...counts].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe("queries answered by planned reads", () => {
  it("/metrics says which manifest documents are planned, and why the others are executed", async () => {
    const text = await metrics();
    expect(text).toContain(
      `graphql_document_execution{document="${sha256(ORDERS)}",operation="Orders",execution="planned",reason=""} 1`,
    );
    expect(text).toContain(
      `graphql_document_execution{document="${sha256(ORDER)}",operation="Order",execution="planned",reason=""} 1`,
    );
    expect(text).toMatch(
      new RegExp(
        `graphql_document_execution\\{document="${sha256(EXECUTED)}",operation="Executed",execution="executed",reason="[^"]*Query.matchProduct[^"]*"\\} 1`,
      ),
    );
  });

  it("answers a page sent in full, page after page, with the bytes execution gives, from one statement", async () => {
    let after: string | null = null;
    for (let page = 0; page < 3; page += 1) {
      const variables = { first: 2, after };
      harness.resetQueries();
      const planned = await post({ query: ORDERS, variables });
      const reads = readStatements();
      expect(planned.status).toBe(200);
      expect(planned.data).toBe(await executed(ORDERS, variables));
      expect(reads, "one statement, which reads the orders").toHaveLength(1);
      expect(reads[0]).toMatch(/FROM "orders"/);
      const parsed = JSON.parse(planned.text) as {
        data: { orders: { pageInfo: { endCursor: string | null } } };
        extensions: { rateLimit: unknown; cost: unknown };
      };
      expect(parsed.extensions).toMatchObject({ rateLimit: expect.any(Object), cost: expect.any(Object) });
      after = parsed.data.orders.pageInfo.endCursor;
    }
  });

  it("answers connections below the root, page after page, with the bytes execution gives, from one statement", async () => {
    let after: string | null = null;
    for (let page = 0; page < 3; page += 1) {
      const variables = { first: 2, after };
      harness.resetQueries();
      const planned = await post({ query: NESTED_PAGES, variables });
      expect(readStatements(), "one statement").toHaveLength(1);
      expect(planned.data).toBe(await executed(NESTED_PAGES, variables));
      type Page = { pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      const parsed = JSON.parse(planned.text) as {
        data: { buyerProductApprovals: { nodes: { orders: Page }[] } };
      };
      const orders = parsed.data.buyerProductApprovals.nodes[0]?.orders;
      expect(orders?.pageInfo.hasNextPage, "a next page").toBe(page < 2);
      after = orders?.pageInfo.endCursor ?? null;
    }
    // A page size out of range is the nested field's error, as execution words it.
    const before = await executedCount("arguments");
    const refused = await post({ query: NESTED_PAGES, variables: { first: 0 } });
    expect(JSON.parse(refused.text)).toMatchObject({
      data: null,
      errors: [
        { path: ["buyerProductApprovals", "nodes", 0, "orders"], extensions: { code: "VALIDATION_FAILED" } },
      ],
    });
    expect(await executedCount("arguments")).toBe(before + 1);
  });

  it("answers a page's items selected in several places (nodes, edges, an edge's node twice) from one read of the rows", async () => {
    const query = `query Places($first: Int) {
      orders(first: $first) {
        nodes { id } edges { cursor a: node { orderReference } b: node { id supplier { name } } }
        more: edges { node { events(first: 1) { nodes { id } edges { node { actor } } } } }
      }
    }`;
    harness.resetQueries();
    const planned = await post({ query, variables: { first: 3 } });
    expect(readStatements(), "one statement").toHaveLength(1);
    expect(planned.data).toBe(await executed(query, { first: 3 }));
    expect(JSON.parse(planned.text).data.orders.nodes).toHaveLength(3);
  });

  it("answers a manifest document by its id, a document registered by its hash, and GraphiQL's GET alike", async () => {
    const query = "query Registered { orders(first: 3) { edges { node { id orderStatus } } } }";
    const expected = await executed(ORDERS, { first: 3 });
    const registered = await executed(query);
    harness.resetQueries();
    expect((await byId(ORDERS, { first: 3 })).data).toBe(expected);
    const hash = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    expect((await post({ query, extensions: hash })).data).toBe(registered);
    expect((await post({ extensions: hash })).data).toBe(registered);
    const url = new URL(GRAPHQL);
    url.searchParams.set("query", ORDERS);
    url.searchParams.set("variables", JSON.stringify({ first: 3 }));
    const fromGraphiql = await harness.app.fetch(url, {
      headers: { "x-api-key": buyer.apiKey, accept: "application/graphql-response+json" },
    });
    const text = await fromGraphiql.text();
    expect(text.slice(0, text.indexOf(',"extensions":'))).toBe(expected.slice(0, -1));
    expect(
      readStatements().filter((sql) => /FROM "orders"/.test(sql)),
      "one statement each",
    ).toHaveLength(4);
  });

  it.each([
    ["a response key twice", "{ orders(first: 3) { edges { node { id quantity id } } } }"],
    [
      "an object twice with different fields, and aliases",
      `{ orders(first: 3) { edges { node { supplier { id } placed: placedAt supplier { name id } placed: placedAt } }
        pageInfo { hasNextPage } edges { node { orderStatus } } pageInfo { endCursor } } }`,
    ],
    [
      "__typename on the connection, the nodes and their objects",
      `{ orders(first: 3) { __typename edges { node { __typename id supplier { __typename name }
        deliverySite { address { __typename city } } resourceValues { __typename value } } } } }`,
    ],
    ["nodes selecting __typename alone", "{ orders(first: 2) { edges { node { __typename } } } }"],
    [
      "totalCount beside a page",
      "{ orders(first: 2) { totalCount edges { node { id } } count: totalCount } }",
    ],
    ["totalCount alone", "{ orders { totalCount } }"],
    [
      "each edge's cursor, aliased, beside its node and __typename",
      "{ orders(first: 3, sortKey: PLACED_AT) { edges { cursor __typename node { id } at: cursor } pageInfo { endCursor } } }",
    ],
    ["edges selecting their cursor alone", "{ orders(first: 2, reverse: true) { edges { cursor } } }"],
    [
      "the nodes of a page, aliased, beside pageInfo and totalCount",
      "{ orders(first: 2) { totalCount list: nodes { id supplier { name } } pageInfo { hasNextPage endCursor } } }",
    ],
  ])("plans %s, with the bytes execution gives", async (_shape, query) => {
    const before = await executedTotal();
    harness.resetQueries();
    const planned = await post({ query });
    expect(readStatements(), "one statement").toHaveLength(1);
    expect(planned.data).toBe(await executed(query));
    expect(planned.data).toContain('"orders":{');
    expect(await executedTotal(), "none executed").toBe(before);
  });

  it.each([
    [
      "several root fields, aliased, in the document's order",
      `query Tiles($compact: Boolean!) {
        quoted: orders(first: 2, filter: { orderStatus: [QUOTE_SELECTED] }) { totalCount nodes { id orderStatus } }
        __typename
        recent: orders(first: 1, reverse: true) { totalCount nodes { id orderReference @skip(if: $compact) } }
        count: orders { totalCount } }`,
      3,
    ],
    [
      "one root field twice under one key, its selections merged",
      `query Tiles($compact: Boolean!) { orders(first: 2) { totalCount } orders(first: 2) { nodes { id } }
        orders(first: 2) { pageInfo @skip(if: $compact) { hasNextPage } nodes { orderStatus } } }`,
      1,
    ],
    [
      "__typename alone at the root",
      "query Tiles($compact: Boolean!) { __typename kind: __typename @skip(if: $compact) }",
      0,
    ],
    [
      "every root field skipped",
      "query Tiles($compact: Boolean!) { orders @skip(if: $compact) { totalCount } }",
      0,
    ],
  ])("plans %s, with the bytes execution gives", async (_shape, query, statements) => {
    const before = await executedTotal();
    harness.resetQueries();
    const planned = await post({ query, variables: { compact: true } });
    expect(readStatements(), "one statement for each root field read").toHaveLength(statements);
    expect(planned.data).toBe(await executed(query, { compact: true }));
    expect(await executedTotal(), "none executed").toBe(before);
  });

  it("executes several root fields when one of them refuses its arguments, as execution answers them", async () => {
    const query = `query Two($after: String) { orders(first: 1) { totalCount } page: orders(first: 1, after: $after) { totalCount } }`;
    const before = await executedCount("arguments");
    const answer = await post({ query, variables: { after: "not a cursor" } });
    const { extensions: _counts, ...answered } = JSON.parse(answer.text) as Record<string, unknown>;
    expect(answered).toEqual(JSON.parse(await executed(query, { after: "not a cursor" })));
    expect(answered).toMatchObject({
      data: null,
      errors: [{ extensions: { code: "VALIDATION_FAILED" } }],
    });
    expect(await executedCount("arguments")).toBe(before + 1);
  });

  it("answers a record, and null for another buyer's, as execution does", async () => {
    const page = JSON.parse((await post({ query: ORDERS, variables: { first: 1 } })).text) as {
      data: { orders: { edges: { node: { databaseId: string } }[] } };
    };
    const id = page.data.orders.edges[0]?.node.databaseId;
    const planned = await post({ query: ORDER, variables: { id } });
    expect(planned.data).toBe(await executed(ORDER, { id }));
    expect(planned.data).toContain('"quantity":"12345678901234.56789"');
    const asOther = await post({ query: ORDER, variables: { id } }, other.apiKey);
    expect(asOther.data).toBe('{"data":{"order":null}}');
  });

  it("plans fragments and @skip/@include, once for each value of their variables, with the bytes execution gives", async () => {
    const query = `query Fragments($with: Boolean!, $without: Boolean = false) {
      orders(first: 3) { ... on OrderConnection { edges { node { ...Order id @skip(if: $without) } } }
        pageInfo @include(if: $with) { hasNextPage } } }
      fragment Order on Order { orderStatus ... { supplier { name } } supplier @include(if: $with) { id }
        ... on Node @skip(if: $without) { id } }`;
    const before = await executedTotal();
    for (const variables of [{ with: true }, { with: false, without: true }, { with: true }]) {
      harness.resetQueries();
      const planned = await post({ query, variables });
      console.log(
        "STATEMENTS",
        readStatements().map((sql) => sql.slice(0, 150)),
      );
      expect(readStatements(), "one statement").toHaveLength(1);
      expect(planned.data).toBe(await executed(query, variables));
    }
    expect(await executedTotal(), "none executed").toBe(before);
    const refused = await post({ query, variables: { with: "yes" } });
    expect(JSON.parse(refused.text)).toMatchObject({
      errors: [{ message: expect.stringContaining("$with") }],
    });
  });

  it("counts every item on a page past the last, with the bytes execution gives", async () => {
    const all = JSON.parse((await post({ query: ORDERS, variables: { first: 50 } })).text) as {
      data: { orders: { pageInfo: { endCursor: string } } };
    };
    const query = `query Past($after: String) { orders(first: 2, after: $after) { totalCount edges { node { id } } } }`;
    const variables = { after: all.data.orders.pageInfo.endCursor };
    const before = await executedTotal();
    const planned = await post({ query, variables });
    expect(planned.data).toBe(await executed(query, variables));
    expect(planned.data).toContain('"totalCount":5');
    expect(await executedTotal(), "none executed").toBe(before);
  });

  it("plans node for each type of record, with the bytes execution gives, null for another buyer's", async () => {
    const query = `query Node($id: ID!) { node(id: $id) { __typename id ... on Order { orderStatus supplier { name } }
      ...S } } fragment S on Supplier { name databaseId }`;
    const page = JSON.parse((await post({ query: ORDERS, variables: { first: 1 } })).text) as {
      data: { orders: { edges: { node: { id: string; supplier: { id: string } } }[] } };
    };
    const order = page.data.orders.edges[0]?.node;
    const before = await executedTotal();
    for (const id of [order?.id, order?.supplier.id]) {
      harness.resetQueries();
      const planned = await post({ query, variables: { id } });
      console.log(
        "STATEMENTS",
        readStatements().map((sql) => sql.slice(0, 150)),
      );
      expect(readStatements(), "one statement").toHaveLength(1);
      expect(planned.data).toBe(await executed(query, { id }));
      expect(planned.data).not.toContain('"node":null');
      const asOther = await post({ query, variables: { id } }, other.apiKey);
      expect(asOther.data).toBe(await executed(query, { id }, other));
      expect(asOther.data).toBe('{"data":{"node":null}}');
    }
    expect(await executedTotal(), "none executed").toBe(before);
    const refused = await post({ query, variables: { id: "not a global id" } });
    expect(JSON.parse(refused.text)).toMatchObject({
      data: { node: null },
      errors: [{ extensions: { code: "VALIDATION_FAILED" } }],
    });
  });

  it("plans nodes in the IDs' order, one statement per type, null where the buyer has none, as execution answers", async () => {
    const query = `query Nodes($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Order { orderStatus supplier { name } }
      ... on Supplier { name } } }`;
    const page = JSON.parse((await post({ query: ORDERS, variables: { first: 2 } })).text) as {
      data: { orders: { edges: { node: { id: string; supplier: { id: string } } }[] } };
    };
    const [first, second] = page.data.orders.edges.map((edge) => edge.node);
    const unknown = Buffer.from("Order:00000000-0000-4000-8000-000000000000").toString("base64");
    const before = await executedTotal();
    for (const [ids, statements] of [
      [[second?.id, first?.supplier.id, first?.id, unknown, second?.id], 2],
      [[first?.supplier.id], 1],
      [[], 0],
    ] as const) {
      harness.resetQueries();
      const planned = await post({ query, variables: { ids } });
      expect(readStatements(), "one statement for each type").toHaveLength(statements);
      expect(planned.data).toBe(await executed(query, { ids }));
      const asOther = await post({ query, variables: { ids } }, other.apiKey);
      expect(asOther.data).toBe(await executed(query, { ids }, other));
    }
    expect(await executedTotal(), "none executed").toBe(before);
    for (const ids of [[first?.id, "not a global id"], Array.from({ length: 101 }, () => first?.id)]) {
      const refused = await post({ query, variables: { ids } });
      expect(JSON.parse(refused.text)).toMatchObject({
        errors: [{ extensions: { code: "VALIDATION_FAILED" } }],
      });
    }
    expect(await executedTotal(), "both refused by execution").toBe(before + 2);
  });

  it("executes a request whose arguments its planned read refuses, answers what execution answers, and counts it", async () => {
    const before = await executedCount("arguments");
    const variables = { first: 2, after: "not a cursor" };
    const answer = await post({ query: ORDERS, variables });
    expect(answer.data).toBe((await byId(ORDERS, variables)).data);
    expect(JSON.parse(answer.text)).toMatchObject({
      errors: [{ extensions: { code: "VALIDATION_FAILED" } }],
    });
    expect(await executedCount("arguments")).toBe(before + 2);
  });

  it("executes a query it cannot plan, and /metrics counts it by a reason code, not by its text", async () => {
    const before = await executedCount("root_field");
    const answer = await post({ query: EXECUTED });
    expect(answer.status).toBe(200);
    expect(answer.data).toBe(await executed(EXECUTED));
    expect(await executedCount("root_field")).toBe(before + 1);
    const text = await metrics();
    const reasons = [...text.matchAll(/^graphql_executed_queries_total\{reason="([^"]*)"\}/gm)].map(
      (match) => match[1],
    );
    expect(reasons).toContain("root_field");
    expect(reasons.every((reason) => /^[a-z_]+$/.test(reason ?? ""))).toBe(true);
  });

  it("plans an endpoint's deliveries page after page, and executes another buyer's endpoint (NOT_FOUND) as before", async () => {
    const { prisma } = harness.database;
    const endpoint = (buyerId: string) =>
      prisma.webhookEndpoint.create({
        data: {
          id: randomUUID(),
          buyerId,
          url: "https://example.com/hook",
          enabledEvents: ["*"],
          secretCiphertext: "x",
        },
      });
    const [busy, idle, others] = await Promise.all([
      endpoint(buyer.buyerId),
      endpoint(buyer.buyerId),
      endpoint(other.buyerId),
    ]);
    const event = await prisma.webhookEvent.create({
      data: { id: randomUUID(), buyerId: buyer.buyerId, type: "order.created", data: '{"a":1.50}' },
    });
    for (const [day, status] of [
      [1, "succeeded"],
      [2, "pending"],
      [2, "failed"],
    ] as const)
      await prisma.webhookDelivery.create({
        data: {
          id: randomUUID(),
          buyerId: buyer.buyerId,
          endpointId: busy.id,
          eventId: event.id,
          status,
          attempts: day,
          availableAt: new Date(Date.UTC(2025, 4, day, 2)),
          createdAt: new Date(Date.UTC(2025, 4, day)),
          succeededAt: status === "succeeded" ? new Date(Date.UTC(2025, 4, day, 1)) : null,
          // Stored out of order: the attempts are answered first to last.
          tries: {
            create: [2, 1].slice(2 - day).map((attempt) => ({
              id: randomUUID(),
              attempt,
              statusCode: attempt === day && status === "succeeded" ? 204 : null,
              durationMs: 15,
              error: attempt === day && status === "succeeded" ? null : 'timeout "after" 10 s',
            })),
          },
        },
      });
    const query = `query Deliveries($id: UUID!, $first: Int, $after: String) {
      webhookDeliveries(endpointId: $id, first: $first, after: $after) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id endpointId eventId eventType status attemptCount nextAttemptAt succeededAt createdAt updatedAt
          attempts { attempt statusCode durationMs error nextRetryAt createdAt } } }
      } }`;
    const before = await executedTotal();
    let after: string | null = null;
    for (let page = 0; page < 3; page += 1) {
      const variables = { id: busy.id, first: 2, after };
      harness.resetQueries();
      const planned = await post({ query, variables });
      expect(readStatements(), "one statement, which reads the deliveries").toHaveLength(page < 2 ? 1 : 3);
      expect(planned.data).toBe(await executed(query, variables));
      after = (
        JSON.parse(planned.text) as {
          data: { webhookDeliveries: { pageInfo: { endCursor: string | null } } };
        }
      ).data.webhookDeliveries.pageInfo.endCursor;
    }
    const none = await post({ query, variables: { id: idle.id } });
    expect(none.data).toBe(await executed(query, { id: idle.id }));
    expect(none.data).toContain('"totalCount":0');
    expect(await executedTotal(), "none executed").toBe(before);
    const refusedBefore = await executedCount("arguments");
    for (const id of [others.id, randomUUID()]) {
      const refused = await post({ query, variables: { id } });
      const { extensions: _counts, ...answered } = JSON.parse(refused.text) as Record<string, unknown>;
      expect(answered).toEqual(JSON.parse(await executed(query, { id })));
      expect(answered).toMatchObject({
        data: null,
        errors: [{ message: "Webhook endpoint not found", extensions: { code: "NOT_FOUND" } }],
      });
    }
    expect(await executedCount("arguments"), "both executed, which words NOT_FOUND").toBe(refusedBefore + 2);
  });

  it("plans the viewer's buyer and API key, with the bytes execution gives", async () => {
    const query = `{ viewer { __typename me: buyer { id name } apiKey { id prefix name createdAt lastUsedAt } } }`;
    const before = await executedTotal();
    for (const as of [buyer, other]) {
      harness.resetQueries();
      const planned = await post({ query }, as.apiKey);
      // The key's statement reads api_keys, which `readStatements` leaves out.
      expect(readStatements(), "one statement for the buyer").toHaveLength(1);
      expect(planned.data).toBe(await executed(query, {}, as));
      expect(planned.data).toContain(`"me":{"id":"${as.buyerId}"`);
    }
    expect(await executedTotal(), "none executed").toBe(before);
  });

  it("plans every record's tags and a product's approval counts, with the bytes execution gives", async () => {
    const { prisma } = harness.database;
    const { buyerId, tagGroupId, productId } = buyer;
    const [first, second, third] = buyer.tagIds;
    const [tagged, once] = await prisma.order.findMany({
      where: { buyerId },
      select: { id: true },
      orderBy: { createdAt: "desc" },
    });
    if (!first || !second || !third || !tagged || !once) throw new Error("no seeded tags or orders");
    // Two more tags of a name a seeded one has: the id breaks the tie.
    const twins = [randomUUID(), randomUUID()];
    await prisma.tag.createMany({
      data: twins.map((id) => ({ id, buyerId, tagGroupId, name: "Tag 1", category: "twin" })),
    });
    // A supplier user with an order's id: a record of another type, with a tag the order does not have.
    await prisma.supplierUser.create({
      data: {
        id: tagged.id,
        supplierId: buyer.supplierId,
        contactEmail: "same-id@example.com",
        contactEmailKey: "same-id@example.com",
        createdByBuyerId: buyerId,
      },
    });
    // A product without approvals, and another status twice for the seeded one.
    await prisma.buyerProduct.create({
      data: {
        id: randomUUID(),
        buyerId,
        productId,
        rawMaterialName: "Unapproved",
        measurementUnit: "kg",
        productType: "RawMaterial",
      },
    });
    await prisma.buyerProductApproval.createMany({
      data: (["pending", "pending"] as const).map((approvalStatus) => ({
        id: randomUUID(),
        buyerId,
        buyerProductId: buyer.buyerProductId,
        approvalStatus,
      })),
    });
    const tagging = (taggableType: TaggableType, taggableId: string, tagIds: string[]) =>
      tagIds.map((tagId) => ({ tagId, taggableType, taggableId, buyerId }));
    await prisma.tagging.createMany({
      data: [
        ...tagging("Order", tagged.id, [third, ...twins, second]),
        ...tagging("SupplierUser", tagged.id, [first]),
        ...tagging("Order", once.id, [first]),
        ...tagging("BuyerProduct", buyer.buyerProductId, [second, first]),
        ...tagging("BuyerProductApproval", buyer.approvalId, twins),
      ],
    });
    const query = `query Tagged($id: ID!) {
      orders(first: 10) { nodes { databaseId tags { id name category tagGroup { name } }
        buyerProduct { approvalCounts { total approved pending preferred sampleRequested } } } }
      buyerProducts(first: 10) { nodes { rawMaterialName tags { name }
        approvalCounts { __typename total pending approved unapproved inactive } } }
      buyerProductApprovals(first: 10) { nodes { tags { id } } }
      node(id: $id) { ... on SupplierUser { tags { name category } } }
    }`;
    const variables = { id: encodeGlobalId("SupplierUser", tagged.id) };
    const before = await executedTotal();
    harness.resetQueries();
    const planned = await post({ query, variables });
    expect(readStatements(), "one statement for each root field").toHaveLength(4);
    expect(planned.data).toBe(await executed(query, variables));
    expect(await executedTotal(), "none executed").toBe(before);
    type Tags = { tags: { id: string; name: string }[] };
    const { data } = JSON.parse(planned.text) as {
      data: {
        orders: { nodes: (Tags & { databaseId: string })[] };
        buyerProducts: { nodes: { rawMaterialName: string; approvalCounts: Record<string, unknown> }[] };
        node: { tags: { name: string }[] };
      };
    };
    const tagsOf = (id: string) => data.orders.nodes.find((node) => node.databaseId === id)?.tags;
    // The twins and the second seeded tag are all "Tag 1".
    expect(
      tagsOf(tagged.id)?.map((tag) => tag.id),
      "by name, the id breaking the tie",
    ).toEqual([...[...twins, second].sort(), third]);
    expect(data.orders.nodes.filter((node) => node.tags.length === 0)).toHaveLength(3);
    expect(data.node.tags, "the supplier user's own tag, not the order's").toEqual([
      { name: "Tag 0", category: "compliance" },
    ]);
    expect(data.buyerProducts.nodes.map((node) => node.approvalCounts)).toEqual(
      expect.arrayContaining([
        { __typename: "ApprovalCounts", total: 3, pending: 2, approved: 1, unapproved: 0, inactive: 0 },
        { __typename: "ApprovalCounts", total: 0, pending: 0, approved: 0, unapproved: 0, inactive: 0 },
      ]),
    );
  });

  it("counts no mutation or subscription, and no query it answers", async () => {
    const before = await executedTotal();
    await post({ query: ORDERS, variables: { first: 1 } });
    await post({ query: "mutation { __typename }" });
    expect(await executedTotal()).toBe(before);
  });
});

describe("fields computed from columns, and a product's name falling back to the buyer's", () => {
  const STATUSES = ORDER_STATUS_VALUES;
  let computed: SeededBuyer;

  beforeAll(async () => {
    const { database } = harness;
    const { prisma } = database;
    computed = await seedBuyer(database, "Computed values");
    // Catalogue products auto-match made, with no name: one with a CAS number, one without.
    const withCas = randomUUID();
    const bare = randomUUID();
    await prisma.product.createMany({
      data: [
        { id: withCas, name: null, normalizedName: "", casNumber: "64-17-5", productType: "RawMaterial" },
        { id: bare, name: null, normalizedName: "", casNumber: null, productType: "Other" },
      ],
    });
    // Each buyer product's own name, or none, on each kind of product.
    const products = [
      { productId: withCas, rawMaterialName: 'Ethanol "96" é' },
      { productId: withCas, rawMaterialName: null },
      { productId: bare, rawMaterialName: "Own name" },
      { productId: bare, rawMaterialName: null },
      { productId: computed.productId, rawMaterialName: null },
    ].map((product) => ({ ...product, id: randomUUID() }));
    await prisma.buyerProduct.createMany({
      data: products.map((product) => ({
        ...product,
        buyerId: computed.buyerId,
        measurementUnit: "kg" as const,
        productType: "RawMaterial" as const,
      })),
    });
    const approvalIds = [computed.approvalId];
    for (const product of products) {
      const id = randomUUID();
      approvalIds.push(id);
      await prisma.buyerProductApproval.create({
        data: { id, buyerId: computed.buyerId, buyerProductId: product.id, approvalStatus: "approved" },
      });
    }
    // One order in each status, each on another approval's product.
    const orderIds = await seedOrders(
      database,
      computed,
      STATUSES.map((orderStatus, day) => ({ createdAt: new Date(Date.UTC(2025, 2, day + 1)), orderStatus })),
    );
    for (const [index, id] of orderIds.entries())
      await prisma.order.update({
        where: { id },
        data: { buyerProductApprovalId: approvalIds[index % approvalIds.length] ?? computed.approvalId },
      });
    // Changes as the update records them, and values a stored document may hold: none, nulls, lists, numbers.
    const changes = [
      {},
      { order_status: { from: "quote_selected", to: "order_placed" } },
      {
        purchase_order_reference: { from: null, to: 'PO-"7" 漢字' },
        placed_at: { from: null, to: "2025-03-01T00:00:00.000Z" },
      },
      { resource_values: { from: [], to: [{ provider: "erp", value: "E-1" }] } },
      { supplier_order_reference: { from: "S-1" }, order_status: { from: "in_port", to: "in_transit" } },
      { quantity: { from: 1.5, to: 10 } },
    ];
    await prisma.orderEvent.createMany({
      data: changes.map((change, index) => ({
        id: randomUUID(),
        orderId: orderIds[index % 2] ?? "",
        buyerId: computed.buyerId,
        actor: "api_key:test",
        changes: change,
        createdAt: new Date(Date.UTC(2025, 3, 1, 0, index)),
      })),
    });
  });

  const QUERY = `query Computed {
    orders(first: 20) { nodes { orderStatus allowedNextStatuses next: allowedNextStatuses
      product { __typename id name casNumber code productType }
      events(first: 10) { nodes { changes { __typename field from to again: field } } } } }
    buyerProducts(first: 20) { nodes { rawMaterialName product { name casNumber } } }
  }`;

  it("plans them, with the bytes execution gives, for every status, name and change", async () => {
    const before = await executedTotal();
    harness.resetQueries();
    const planned = await post({ query: QUERY }, computed.apiKey);
    expect(readStatements(), "one statement for each root field").toHaveLength(2);
    expect(planned.data).toBe(await executed(QUERY, {}, computed));
    expect(await executedTotal(), "none executed").toBe(before);
    const { data } = JSON.parse(planned.data) as {
      data: {
        orders: {
          nodes: {
            orderStatus: string;
            allowedNextStatuses: string[];
            product: { name: string };
            events: { nodes: { changes: unknown[] }[] };
          }[];
        };
        buyerProducts: { nodes: { product: { name: string } }[] };
      };
    };
    const next = Object.fromEntries(
      data.orders.nodes.map((node) => [node.orderStatus, node.allowedNextStatuses]),
    );
    expect(Object.keys(next).sort()).toEqual(STATUSES.map((status) => status.toUpperCase()).sort());
    expect(next.DELIVERED).toEqual([]);
    expect(next.IN_PORT).toEqual(["IN_TRANSIT", "IN_WAREHOUSE", "SHIPPED", "DELIVERED"]);
    expect(new Set(data.buyerProducts.nodes.map((node) => node.product.name))).toEqual(
      new Set(['Ethanol "96" é', "CAS 64-17-5", "Own name", "Unnamed product", "Glycerin"]),
    );
    const changes = data.orders.nodes.flatMap((node) => node.events.nodes.map((event) => event.changes));
    expect(changes).toContainEqual([]);
    expect(changes).toContainEqual([
      {
        __typename: "OrderFieldChange",
        field: "orderStatus",
        from: "QUOTE_SELECTED",
        to: "ORDER_PLACED",
        again: "orderStatus",
      },
    ]);
  });
});
