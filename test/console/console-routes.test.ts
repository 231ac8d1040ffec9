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

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Console");
    const config = testConfig();
    const logger = createLogger("silent");
    app = createApp({ config, database, logger });
    demo = createApp({ config, database, logger, demoApiKey: DEMO_KEY });
  });
  afterAll(async () => {
    await database?.close();
  });

  const html = (target: App, path: string) =>
    target.fetch(`http://localhost${path}`, { headers: { accept: "text/html" } });

  describe("GET /", () => {
    // The page itself is test/http/home-page.test.ts's; here, that the app serves it with its headers.
    it("is the home page, for GET and HEAD, with the usual security headers", async () => {
      expect((await app.fetch("http://localhost/", { method: "HEAD" })).status).toBe(200);
      expect((await app.fetch("http://localhost/", { method: "POST" })).status).toBe(405);
      const response = await html(app, "/");
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('href="/docs"');
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
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
