// Persisted documents as front-end clients send them: Apollo Client's
// persisted-query link (automatic persisted queries), trusted documents from a
// manifest by `documentId`, and a production server that accepts only those.
// The settings themselves are in persisted-document-settings.test.ts.
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApolloClient, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app.js";
import { generateApiKey, hashApiKey, visibleKeyPrefix } from "../../src/auth/api-key-format.js";
import { loadConfig } from "../../src/config.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL, graphql } from "./helpers.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const threeOrders = () => [1, 2, 3].map((day) => ({ createdAt: new Date(Date.UTC(2026, 0, day)) }));

const ORDERS = "query Orders { orders(first: 2) { edges { node { id orderReference } } } }";

/** Every request the client sends, as the server saw it. */
interface Sent {
  query: boolean;
  hash: string | undefined;
  status: number;
}

function apolloClientFor(app: App, key: string, sent: Sent[]) {
  const fetchThroughApp: typeof fetch = async (input, init) => {
    const response = await app.fetch(new Request(input, init));
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const extensions = body.extensions as { persistedQuery?: { sha256Hash?: string } } | undefined;
    sent.push({
      query: typeof body.query === "string",
      hash: extensions?.persistedQuery?.sha256Hash,
      status: response.status,
    });
    return response;
  };
  const persisted = new PersistedQueryLink({ sha256: async (text: string) => sha256(text) });
  return new ApolloClient({
    cache: new InMemoryCache(),
    link: persisted.concat(
      new HttpLink({ uri: GRAPHQL, fetch: fetchThroughApp, headers: { "x-api-key": key } }),
    ),
    defaultOptions: { query: { fetchPolicy: "no-cache" } },
  });
}

async function post(app: App, key: string, body: unknown) {
  const response = await app.fetch(GRAPHQL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json",
      ...(key ? { "x-api-key": key } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] },
  };
}

describe("automatic persisted queries (Apollo's persisted-query link)", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "apq");
    await seedOrders(harness.database, buyer, threeOrders());
  }, 60_000);
  afterAll(() => harness.close());

  it("sends the hash alone, is asked for the document once, then runs by hash", async () => {
    const sent: Sent[] = [];
    const client = apolloClientFor(harness.app, buyer.apiKey, sent);
    const document = gql(ORDERS);
    const first = await client.query<{ orders: { edges: unknown[] } }>({ query: document });
    expect(first.data?.orders.edges).toHaveLength(2);
    // Unknown hash → PersistedQueryNotFound → the link resends with the document.
    expect(sent.map(({ query, status }) => ({ query, status }))).toEqual([
      { query: false, status: 400 },
      { query: true, status: 200 },
    ]);

    const second = await apolloClientFor(harness.app, buyer.apiKey, sent).query<{
      orders: { edges: unknown[] };
    }>({
      query: document,
    });
    expect(second.data).toEqual(first.data);
    expect(sent.at(-1)).toMatchObject({ query: false, status: 200 });
    expect(sent).toHaveLength(3);
  });

  it("refuses a document that does not match the hash it is sent with, and keeps nothing", async () => {
    const forged = sha256("query { __typename }");
    const refused = await post(harness.app, buyer.apiKey, {
      query: ORDERS,
      extensions: { persistedQuery: { version: 1, sha256Hash: forged } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_HASH_MISMATCH");
    const byHash = await post(harness.app, buyer.apiKey, {
      extensions: { persistedQuery: { version: 1, sha256Hash: forged } },
    });
    expect(byHash.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  it("keeps a buyer's registrations from other buyers: another buyer sending the hash is asked for the document", async () => {
    // A search literal written into the document: what the hash alone would betray.
    const searching = 'query { orders(first: 1, query: "reference:ORD-SECRET") { edges { node { id } } } }';
    const byHash = { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(searching) } } };
    const registered = await post(harness.app, buyer.apiKey, { query: searching, ...byHash });
    expect(registered.status).toBe(200);
    expect((await post(harness.app, buyer.apiKey, byHash)).status).toBe(200);

    // The buyer's other key shares the buyer's registrations.
    const otherKey = generateApiKey();
    await harness.database.prisma.apiKey.create({
      data: {
        id: randomUUID(),
        buyerId: buyer.buyerId,
        hash: hashApiKey(otherKey),
        prefix: visibleKeyPrefix(otherKey),
        name: "second",
      },
    });
    expect((await post(harness.app, otherKey, byHash)).status).toBe(200);

    const stranger = await seedBuyer(harness.database, "apq-stranger");
    const oracle = await post(harness.app, stranger.apiKey, byHash);
    expect(oracle.status).toBe(400);
    expect(oracle.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    const anonymous = await post(harness.app, "", byHash);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");

    // Once the other buyer registers it too, it runs for them, on their own data.
    expect((await post(harness.app, stranger.apiKey, { query: searching, ...byHash })).status).toBe(200);
    expect((await post(harness.app, stranger.apiKey, byHash)).status).toBe(200);
  });

  it("says what is missing when a request has neither a document nor an id", async () => {
    const { status, body } = await post(harness.app, buyer.apiKey, { variables: {} });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });
});

describe("trusted documents from a manifest, and a server that accepts only those", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  const manifest = { [`sha256:${sha256(ORDERS)}`]: ORDERS };

  beforeAll(async () => {
    const directory = mkdtempSync(join(tmpdir(), "bpa-persisted-"));
    const path = join(directory, "persisted-documents.json");
    writeFileSync(path, JSON.stringify(manifest));
    const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path, GRAPHQL_PERSISTED_ONLY: "true" });
    harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
    buyer = await seedBuyer(harness.database, "trusted");
    await seedOrders(harness.database, buyer, threeOrders());
  }, 60_000);
  afterAll(() => harness.close());

  it("runs a manifest document by its documentId, as graphql-codegen's client preset sends it", async () => {
    const { status, body } = await post(harness.app, buyer.apiKey, {
      documentId: `sha256:${sha256(ORDERS)}`,
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ orders: { edges: [{ node: {} }, { node: {} }] } });
  });

  it("runs a manifest document by GET with documentId in the query string", async () => {
    const response = await harness.app.fetch(
      `${GRAPHQL}?documentId=${encodeURIComponent(`sha256:${sha256(ORDERS)}`)}`,
      { headers: { accept: "application/graphql-response+json", "x-api-key": buyer.apiKey } },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      data: { orders: { edges: [{ node: {} }, { node: {} }] } },
    });
    const unknown = await harness.app.fetch(`${GRAPHQL}?documentId=sha256:${sha256("query { x }")}`, {
      headers: { accept: "application/graphql-response+json", "x-api-key": buyer.apiKey },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      errors: [{ extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }],
    });
  });

  it("runs a manifest document sent in full with its hash (the APQ link's retry)", async () => {
    const { status } = await post(harness.app, buyer.apiKey, {
      query: ORDERS,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ORDERS) } },
    });
    expect(status).toBe(200);
  });

  it("refuses any other document, sent in full or registered by hash", async () => {
    const other = "query { orders(first: 1) { edges { node { id } } } }";
    const inFull = await graphql(harness.app, other, { key: buyer.apiKey });
    expect(inFull.status).toBe(400);
    expect(inFull.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ONLY");
    const registering = await post(harness.app, buyer.apiKey, {
      query: other,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } },
    });
    expect(registering.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ONLY");
    const byHash = await post(harness.app, buyer.apiKey, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(other) } },
    });
    expect(byHash.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });
});
