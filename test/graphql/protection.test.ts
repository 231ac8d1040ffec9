// Who may use /graphql and how much one operation may ask for: the API key,
// GraphiQL and introspection without a key, graphql-armor's limits with a
// code each, and introspection switched off by configuration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp, testConfig } from "../support/test-app.js";
import { GRAPHQL, graphql, graphqlData } from "./helpers.js";

describe("GraphQL access and limits", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  /** Another app over the same database, configured differently. */
  const appWith = (graphqlConfig: Partial<GraphQLConfig>): App =>
    createApp({
      config: testConfig({ graphql: graphqlConfig }),
      database: harness.database,
      logger: createLogger("silent"),
    });

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Guarded");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
  });
  afterAll(async () => {
    await harness?.close();
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
