// Who may use /graphql and how much one operation may ask for: the API key,
// GraphiQL and introspection without a key, graphql-armor's limits with a
// code each, and introspection switched off by configuration; the code every
// error carries; and the headers of stream answers.
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp, testConfig } from "../support/test-app.js";
import { GRAPHQL, type GraphQLErrorBody, graphql, graphqlData } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

describe("GraphQL access and limits", () => {
  let buyer: SeededBuyer;

  /** Another app over the same database, configured differently. */
  const appWith = (graphqlConfig: Partial<GraphQLConfig>): App =>
    createApp({
      config: testConfig({ graphql: graphqlConfig }),
      database: harness.database,
      logger: createLogger("silent"),
    });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Guarded");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
  });

  describe("the API key", () => {
    it("answers HTTP 401 with UNAUTHENTICATED when the key is missing or unknown, for queries and mutations", async () => {
      for (const key of [null, "bpk_unknown_key_0000000000000000000000000000"]) {
        const query = await graphql(harness.app, "{ viewer { buyer { id } } }", { key });
        expect(query.status).toBe(401);
        expect(query.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
        const mutation = await graphql(
          harness.app,
          `mutation { attachTags(input: { taggableId: "${buyer.buyerProductId}", tagIds: ["${buyer.tagIds[0]}"] }) { addedTagIds } }`,
          { key },
        );
        expect(mutation.status).toBe(401);
        expect(mutation.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      }
      const tags = await harness.database.prisma.tagging.count({
        where: { taggableId: buyer.buyerProductId },
      });
      expect(tags).toBe(0);
    });

    it("answers introspection without a key, so tools can load the schema", async () => {
      const data = await graphqlData<{ __schema: { queryType: { name: string } } }>(
        harness.app,
        "{ __schema { queryType { name } } }",
      );
      expect(data.__schema.queryType.name).toBe("Query");
    });

    it("serves GraphiQL to a browser without a key, self-contained, with the X-API-KEY header to fill in", async () => {
      const response = await harness.app.fetch(GRAPHQL, { headers: { accept: "text/html" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(html).toContain("bpk_paste_your_api_key_here");
      expect(html).toContain("X-API-KEY");
      expect(html).toContain("query RecentOrders");
      // Nothing is fetched from elsewhere: no remote scripts, styles or fonts.
      expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="(https?:)?\/\//i);
      expect(html).not.toMatch(/@import\s+url\(["']?https?:/i);
    });
  });

  describe("limits", () => {
    const refusal = async (app: App, query: string) => {
      const response = await graphql(app, query, { key: buyer.apiKey });
      expect(response.data ?? null).toBeNull();
      const codes = (response.errors ?? []).map((error) => error.extensions?.code);
      return { status: response.status, code: codes[0], codes, errors: response.errors };
    };

    it("refuses a query nested deeper than the limit, before running it", async () => {
      const deep = `{ orders { edges { node { buyerProduct { approvals { edges { node {
        orders { edges { node { approval { buyerProduct { product { name } } } } } } } } } } } } } }`;
      harness.resetQueries();
      expect(await refusal(harness.app, deep)).toMatchObject({ status: 400, code: "DEPTH_LIMIT_EXCEEDED" });
      // Only the key lookup and the rate limit ran: no data was read.
      expect(harness.queries.filter((sql) => /\b(orders|buyer_products)\b/.test(sql))).toEqual([]);
    });

    it("answers a document sent again as it answered it the first time, refused or run", async () => {
      const strict = appWith({ limits: { ...DEFAULT_GRAPHQL_LIMITS, maxDepth: 4 } });
      const documents = {
        deep: "{ orders { edges { node { buyerProduct { id } } } } }",
        invalid: "{ orders { edges { node { nope } } } }",
        shallow: "{ orders { totalCount } }",
      };
      for (const round of [1, 2, 3]) {
        for (const app of [strict, harness.app]) {
          const deep = await graphql(app, documents.deep, { key: buyer.apiKey });
          if (app === strict)
            expect(deep.errors?.[0]?.extensions?.code, `round ${round}`).toBe("DEPTH_LIMIT_EXCEEDED");
          else expect(deep.errors, `round ${round}`).toBeUndefined();
          const invalid = await graphql(app, documents.invalid, { key: buyer.apiKey });
          expect(invalid.status).toBe(400);
          expect(invalid.errors?.map((error) => error.extensions?.code)).toEqual([
            "GRAPHQL_VALIDATION_FAILED",
          ]);
          expect(await graphqlData(app, documents.shallow, { key: buyer.apiKey })).toEqual({
            orders: { totalCount: 1 },
          });
        }
      }
    });

    it("refuses more aliases than the limit", async () => {
      const aliases = Array.from(
        { length: DEFAULT_GRAPHQL_LIMITS.maxAliases + 1 },
        (_, i) => `a${i}: orders { totalCount }`,
      );
      const result = await refusal(harness.app, `{ ${aliases.join(" ")} }`);
      expect(result).toMatchObject({ status: 400, code: "ALIAS_LIMIT_EXCEEDED" });
      expect(result.errors?.[0]?.message).toMatch(/Aliases limit of 30 exceeded/);
    });

    it("refuses pages nested in pages whose cost multiplies past the limit", async () => {
      const costly = `{ orders(first: 500) { edges { node { buyerProduct { orders(first: 500) { edges { node { id } } } } } } } }`;
      expect(await refusal(harness.app, costly)).toMatchObject({ status: 400, code: "COST_LIMIT_EXCEEDED" });
    });

    it("refuses too many directives", async () => {
      const fields = Array.from({ length: 51 }, () => "__typename @include(if: true)").join(" ");
      expect(await refusal(harness.app, `{ ${fields} }`)).toMatchObject({
        status: 400,
        code: "DIRECTIVE_LIMIT_EXCEEDED",
      });
    });

    it("takes every limit from configuration", async () => {
      const strict = appWith({
        limits: { maxDepth: 3, maxAliases: 1, maxCost: 10, maxTokens: 25, maxDirectives: 1 },
      });
      expect((await refusal(strict, "{ orders { edges { node { id } } } }")).codes).toContain(
        "DEPTH_LIMIT_EXCEEDED",
      );
      expect(
        (await refusal(strict, "{ a: viewer { __typename } b: viewer { __typename } }")).codes,
      ).toContain("ALIAS_LIMIT_EXCEEDED");
      expect(
        (await refusal(strict, "{ orders { totalCount pageInfo { hasNextPage endCursor startCursor } } }"))
          .codes,
      ).toEqual(["COST_LIMIT_EXCEEDED"]);
      expect(
        (await refusal(strict, "{ __typename @include(if: true) __typename @skip(if: false) }")).codes,
      ).toEqual(["DIRECTIVE_LIMIT_EXCEEDED"]);
      // Counted while parsing, so nothing else is checked.
      expect(await refusal(strict, `{ ${"__typename ".repeat(30)}}`)).toMatchObject({
        status: 400,
        codes: ["TOKEN_LIMIT_EXCEEDED"],
      });
      // The default app accepts all of these.
      const accepted = await graphql(harness.app, "{ orders { edges { node { id } } } }", {
        key: buyer.apiKey,
      });
      expect(accepted.errors).toBeUndefined();
    });

    it("leaves the REST API alone: its fixed documents run whatever the GraphQL limits", async () => {
      const strict = appWith({
        limits: { maxDepth: 2, maxAliases: 1, maxCost: 1, maxTokens: 10, maxDirectives: 1 },
      });
      const response = await callApi(strict, "GET", "/orders", { key: buyer.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        expect.objectContaining({ delivery_site: expect.objectContaining({ address: expect.any(Object) }) }),
      ]);
    });
  });

  describe("with introspection and GraphiQL switched off", () => {
    let closed: App;
    beforeAll(() => {
      closed = appWith({ introspection: false, graphiql: false });
    });

    it("refuses introspection with INTROSPECTION_DISABLED", async () => {
      for (const query of [
        "{ __schema { types { name } } }",
        '{ __type(name: "Order") { fields { name } } }',
      ]) {
        const response = await graphql(closed, query, { key: buyer.apiKey });
        expect(response.status).toBe(400);
        expect(response.errors?.[0]?.extensions?.code).toBe("INTROSPECTION_DISABLED");
      }
    });

    it("suggests no field, argument or enum value names in its errors", async () => {
      const queries = [
        "{ ordrs { edges { node { id } } } }",
        "{ orders(frist: 1) { totalCount } }",
        "{ orders(filter: { orderStatus: [DELIVERD] }) { totalCount } }",
      ];
      for (const query of queries) {
        const open = await graphql(harness.app, query, { key: buyer.apiKey });
        expect(open.errors?.[0]?.message).toMatch(/Did you mean/);
        const response = await graphql(closed, query, { key: buyer.apiKey });
        expect(response.errors?.length).toBeGreaterThan(0);
        for (const error of response.errors ?? []) {
          expect(error.message).not.toMatch(/Did you mean|DELIVERED|"first"|"orders"/);
        }
      }
    });

    it("still answers ordinary queries and keeps `__typename`", async () => {
      const data = await graphqlData<{ viewer: { __typename: string; buyer: { id: string } } }>(
        closed,
        "{ viewer { __typename buyer { id } } }",
        { key: buyer.apiKey },
      );
      expect(data.viewer).toEqual({ __typename: "Viewer", buyer: { id: buyer.buyerId } });
    });

    it("serves no GraphiQL page", async () => {
      const response = await closed.fetch(GRAPHQL, { headers: { accept: "text/html" } });
      expect(response.headers.get("content-type") ?? "").not.toContain("text/html");
      expect(await response.text()).not.toContain("GraphiQL");
    });
  });
});

// Every error /graphql answers carries an `extensions.code` from the list in
// docs/reference/graphql.md; bad input from the client (HTTP parameters, document,
// variables) is a 400 with a client code, never INTERNAL, and logs no error.
/** The codes docs/reference/graphql.md lists: first column of its error tables. */
function documentedCodes(): Set<string> {
  const docs = readFileSync(new URL("../../docs/reference/graphql.md", import.meta.url), "utf8");
  const codes = new Set<string>();
  for (const line of docs.split("\n")) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    const lastCell = line.split("|").at(-2) ?? "";
    for (const cell of [firstCell, lastCell]) {
      for (const match of cell.matchAll(/`([A-Z][A-Z_]+)`/g)) if (match[1]) codes.add(match[1]);
    }
  }
  return codes;
}

describe("GraphQL error codes", () => {
  let buyer: SeededBuyer;
  let app: App;
  const logLines: { level: number; msg?: string }[] = [];

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Coded");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line) logLines.push(JSON.parse(line));
        done();
      },
    });
    app = createApp({
      config: testConfig(),
      database: harness.database,
      logger: pino({ level: "warn" }, sink),
    });
  });
  beforeEach(() => {
    logLines.length = 0;
  });

  const send = async (init: RequestInit & { url?: string; accept?: string }) => {
    const response = await app.fetch(init.url ?? GRAPHQL, {
      ...init,
      headers: {
        accept: init.accept ?? "application/json",
        "x-api-key": buyer.apiKey,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    });
    const body = (await response.json()) as { data?: unknown; errors?: GraphQLErrorBody[] };
    return { status: response.status, data: body.data, errors: body.errors ?? [] };
  };
  const post = (query: string, variables?: Record<string, unknown>, accept?: string) =>
    send({ method: "POST", body: JSON.stringify({ query, variables }), accept });
  const codes = (errors: GraphQLErrorBody[]) => errors.map((error) => error.extensions?.code);
  const errorLogs = () => logLines.filter((line) => line.level >= 50);

  it("answers a variable that is not a UUID with BAD_USER_INPUT, not INTERNAL, and logs no error", async () => {
    const response = await post("query ($id: UUID!) { order(id: $id) { id } }", { id: "not-a-uuid" });
    expect(response.status).toBe(400);
    expect(codes(response.errors)).toEqual(["BAD_USER_INPUT"]);
    expect(response.errors[0]?.message).toMatch(
      /^Variable "\$id" got invalid value "not-a-uuid"; Not a UUID/,
    );
    expect(errorLogs()).toEqual([]);
  });

  it("answers dates outside 0001-9999, malformed dates and unknown enum values in variables with BAD_USER_INPUT", async () => {
    const filtered = "query ($filter: OrderFilter) { orders(filter: $filter) { totalCount } }";
    for (const filter of [
      { createdAtFrom: "0000-01-01" },
      { createdAtTo: "2024-13-45" },
      { orderStatus: ["SHIPPED", "NOPE"] },
    ]) {
      const response = await post(filtered, { filter });
      expect(response.status, JSON.stringify(filter)).toBe(400);
      expect(codes(response.errors), JSON.stringify(filter)).toEqual(["BAD_USER_INPUT"]);
    }
    const missing = await post("query ($id: UUID!) { order(id: $id) { id } }", {});
    expect(codes(missing.errors)).toEqual(["BAD_USER_INPUT"]);
    expect(errorLogs()).toEqual([]);
  });

  it("answers a bad literal in the document with GRAPHQL_VALIDATION_FAILED, and logs no error", async () => {
    for (const query of [
      '{ order(id: "nope") { id } }',
      '{ orders(filter: { createdAtFrom: "0000-01-01" }) { totalCount } }',
    ]) {
      const response = await post(query);
      expect(response.status, query).toBe(400);
      expect(codes(response.errors), query).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
    }
    expect(errorLogs()).toEqual([]);
  });

  it("answers GET with variables that are not JSON like POST: 400 BAD_REQUEST, no stack trace in the log", async () => {
    const query = encodeURIComponent("query ($n: Int) { orders(first: $n) { totalCount } }");
    for (const variables of ["notjson", "%7Bbroken"]) {
      const response = await send({ url: `${GRAPHQL}?query=${query}&variables=${variables}` });
      expect(response.status).toBe(400);
      expect(codes(response.errors)).toEqual(["BAD_REQUEST"]);
    }
    const post = await send({ method: "POST", body: "{not json" });
    expect(post.status).toBe(400);
    expect(codes(post.errors)).toEqual(["BAD_REQUEST"]);
    expect(errorLogs()).toEqual([]);
  });

  it("answers documents refused before they run with HTTP 400 whatever the client accepts", async () => {
    const refused = [
      "{ orders { ",
      "{ nope }",
      "{ orders(first: 500) { edges { node { buyerProduct { orders(first: 500) { edges { node { id } } } } } } } }",
      `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { __typename }`).join(" ")} }`,
    ];
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      for (const query of refused) {
        const response = await post(query, undefined, accept);
        expect(response.status, `${accept}: ${query}`).toBe(400);
        expect(response.errors.length).toBeGreaterThan(0);
      }
    }
  });

  it("gives every error a code from the documented list", async () => {
    const documented = documentedCodes();
    for (const code of ["BAD_REQUEST", "BAD_USER_INPUT", "GRAPHQL_PARSE_FAILED", "TIMEOUT", "INTERNAL"]) {
      expect(documented.has(code), code).toBe(true);
    }
    const query = encodeURIComponent("{ __typename }");
    const responses = [
      await send({ url: `${GRAPHQL}?query=${query}&variables=notjson` }),
      await send({ url: `${GRAPHQL}?query=${encodeURIComponent("mutation { __typename }")}` }),
      await send({ method: "POST", body: JSON.stringify({ variables: {} }) }),
      await send({ method: "POST", body: JSON.stringify({ query: "{ __typename }", unknown: 1 }) }),
      await post("{ orders { "),
      await post("{ nope }"),
      await send({
        method: "POST",
        body: JSON.stringify({ query: "query A { __typename } query B { __typename }" }),
      }),
      await post("query ($id: UUID!) { order(id: $id) { id } }", { id: "x" }),
      await post("query ($s: [OrderStatus!]) { orders(filter: { orderStatus: $s }) { totalCount } }", {
        s: "X",
      }),
      await post("{ orders(first: 0) { totalCount } }"),
      await post(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { __typename }`).join(" ")} }`),
    ];
    const seen = responses.flatMap((response) => codes(response.errors));
    expect(seen.length).toBeGreaterThanOrEqual(10);
    for (const code of seen) {
      expect(typeof code === "string" && documented.has(code), String(code)).toBe(true);
    }
    expect(errorLogs()).toEqual([]);
  });
});

// Subscriptions answered as multipart or event streams carry the same
// security and no-caching headers as every JSON answer of /graphql.
const API_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
};

describe("/graphql stream responses", () => {
  let buyer: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Streams");
  });

  it("a JSON answer carries the API headers (the reference)", async () => {
    const response = await graphql(harness.app, "{ viewer { buyer { name } } }", { key: buyer.apiKey });
    expect(Object.fromEntries(response.headers)).toMatchObject(API_HEADERS);
  });

  it.each([
    ["a query", "multipart/mixed", "{ viewer { buyer { name } } }", /^multipart\/mixed/],
    [
      "a subscription",
      "text/event-stream",
      "subscription { orderUpdated { order { orderStatus } } }",
      /^text\/event-stream/,
    ],
  ])("%s answered as %s carries them too", async (_what, accept, query, contentType) => {
    const response = await harness.app.fetch(GRAPHQL, {
      method: "POST",
      headers: { "content-type": "application/json", accept, "x-api-key": buyer.apiKey },
      body: JSON.stringify({ query }),
    });
    const reader = response.body?.getReader();
    await reader?.cancel().catch(() => {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(contentType);
    expect(Object.fromEntries(response.headers)).toMatchObject(API_HEADERS);
  });
});
