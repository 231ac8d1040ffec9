// A newcomer's first requests: GET / says where everything is, GraphiQL says
// where a key comes from (or, in the demo, has it), and a guessed path that
// does not exist points to the reference.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { API, callApi, testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const DEMO_KEY = "bpk_demo_aurora_cosmetics_000000000000000001";

describe("the console around the API", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let app: App;
  let demo: App;
  let withoutGraphiQL: App;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Console");
    const config = testConfig();
    const logger = createLogger("silent");
    app = createApp({ config, database, logger });
    demo = createApp({ config, database, logger, demoApiKey: DEMO_KEY });
    withoutGraphiQL = createApp({
      config: testConfig({ graphql: { graphiql: false } }),
      database,
      logger,
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  const html = (target: App, path: string) =>
    target.fetch(`http://localhost${path}`, { headers: { accept: "text/html" } });

  describe("GET /", () => {
    it("links the reference, the GraphQL console, the OpenAPI document and health, and says how to get a key", async () => {
      const response = await html(app, "/");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const page = await response.text();
      const links = [...page.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
      expect(links).toEqual(
        expect.arrayContaining(["/docs", "/graphql", "/api/public/buyer/v1/openapi.json", "/healthz"]),
      );
      expect(page).toContain("buyer-api keys create --buyer &lt;buyer id&gt;");
      expect(page).not.toContain("bpk_demo");
    });

    it("loads nothing from elsewhere: the one inline style is allowed by its hash, and the usual security headers are set", async () => {
      const response = await html(app, "/");
      const page = await response.text();
      expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(page).not.toContain("<script");
      const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
      const hash = createHash("sha256").update(style).digest("base64");
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain(`style-src 'sha256-${hash}'`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    });

    it("shows the demo key, with a request to try, when the server runs the demo", async () => {
      const response = await html(demo, "/");
      const page = await response.text();
      expect(page).toContain(DEMO_KEY);
      expect(page).toContain(
        `curl -sS -H 'X-API-KEY: ${DEMO_KEY}' 'http://localhost/api/public/buyer/v1/orders`,
      );
      expect(response.headers.get("cache-control")).toBe("no-store");
    });

    it("does not link a GraphQL console that is switched off", async () => {
      const page = await (await html(withoutGraphiQL, "/")).text();
      expect(page).not.toContain('href="/graphql"');
      expect(page).toContain('href="/docs"');
    });

    it("answers HEAD, and refuses other methods with 405", async () => {
      expect((await app.fetch("http://localhost/", { method: "HEAD" })).status).toBe(200);
      const refused = await app.fetch("http://localhost/", { method: "POST" });
      expect(refused.status).toBe(405);
      expect(refused.headers.get("allow")).toBe("GET, HEAD");
    });
  });

  describe("GraphiQL", () => {
    it("says where a key comes from, with the placeholder in the headers", async () => {
      const page = await (await html(app, "/graphql")).text();
      expect(page).toContain("buyer-api keys create --buyer");
      expect(page).toContain("bpk_paste_your_api_key_here");
    });

    it("has the demo key in its headers when the server runs the demo", async () => {
      const page = await (await html(demo, "/graphql")).text();
      expect(page).toContain(DEMO_KEY);
      expect(page).not.toContain("bpk_paste_your_api_key_here");
    });
  });

  describe("a path that does not exist", () => {
    it("/docs/ leads to /docs", async () => {
      const response = await app.fetch("http://localhost/docs/", { redirect: "manual" });
      expect(response.status).toBe(308);
      expect(response.headers.get("location")).toBe("/docs");
    });

    it("outside the API: 404 whose detail and Link header point to /docs", async () => {
      const response = await callApi(app, "GET", "http://localhost/orders");
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "not_found", detail: expect.stringContaining("/docs") });
      expect(response.headers.get("link")).toBe('</docs>; rel="help"');
    });

    it.each([
      ["the bare prefix", API],
      ["an unknown version", "http://localhost/api/public/buyer/v2/orders"],
      ["an unknown path under the prefix", `${API}/nothing_here`],
    ])("%s: 404 with a Link header to /docs", async (_name, url) => {
      const response = await callApi(app, "GET", url, { key: buyer.apiKey });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "not_found" });
      expect(response.headers.get("link")).toBe('</docs>; rel="help"');
    });

    it("a record that does not exist on a real route is an ordinary 404, without the pointer", async () => {
      const response = await callApi(app, "PATCH", "/orders/c0ffee00-0000-4000-8000-000000000000", {
        key: buyer.apiKey,
        body: { purchase_order_reference: "PO-1" },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get("link")).toBeNull();
    });
  });
});
