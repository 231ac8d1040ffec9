// GET /docs: the Redoc reference, served from local packages only; and the
// OpenAPI document it renders, served without a key.
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/route.js";
import { withCodeSamples } from "../../src/http/code-samples.js";
import { buildOpenApiDocument, OPENAPI_PATH } from "../../src/openapi/document.js";
import type { OpenApiDocument } from "../../src/openapi/types.js";
import { schema } from "../../src/schema/index.js";
import { createTestApp, PUBLIC_BASE_URL, type TestApp } from "../support/test-app.js";

/** The bundle's URL carries a hash of its bytes. */
const BUNDLE = /^\/docs\/redoc\.standalone\.[0-9a-f]{12}\.js$/;

describe("the API reference page", () => {
  let harness: TestApp;
  const get = (path: string, init: RequestInit = {}) =>
    harness.app.fetch(new Request(`http://localhost${path}`, init));

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("serves /docs without an API key, loading scripts only from this server", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1])).toEqual([
      expect.stringMatching(BUNDLE),
      "/docs/init.js",
    ]);
    expect(html).not.toMatch(/https?:\/\//);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });

  it("serves Redoc from node_modules without the CDN logo it would fetch, at a URL naming its bytes", async () => {
    const html = await (await get("/docs")).text();
    const bundlePath = /<script src="([^"]+)"/.exec(html)?.[1] ?? "";
    const response = await get(bundlePath);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await get("/docs/redoc.standalone.000000000000.js")).status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    const bundle = await response.text();
    expect(bundle.length).toBeGreaterThan(500_000);
    expect(bundle).not.toContain("cdn.redoc.ly");
  });

  it("renders the document at the OpenAPI URL, whose server is the public origin", async () => {
    const script = await (await get("/docs/init.js")).text();
    // The page's script run as the browser would, with this server behind its fetch and Redoc stubbed.
    const requested: string[] = [];
    const rendered = new Promise<OpenApiDocument>((resolve) => {
      runInNewContext(script, {
        fetch: (path: string) => {
          requested.push(path);
          return get(path);
        },
        Redoc: { init: (spec: OpenApiDocument) => resolve(spec) },
        document: { getElementById: () => null },
      });
    });
    const spec = await rendered;
    expect(requested).toEqual([OPENAPI_PATH]);
    expect(spec.servers?.map((server) => server.url)).toEqual([PUBLIC_BASE_URL]);
    expect(Object.keys(spec.paths)).toContain(`${API_PREFIX}/orders`);
  });

  it("answers other methods with 405 and Allow", async () => {
    const response = await get("/docs", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ code: "method_not_allowed" });
  });

  describe("the OpenAPI document it renders", () => {
    it("is served at /api/public/buyer/v1/openapi.json without an API key, as JSON", async () => {
      const response = await get(OPENAPI_PATH);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      const served = (await response.json()) as OpenApiDocument;
      expect(served.openapi).toBe("3.1.0");
      expect(served.info.version).toBe("v1");
    });

    it("is the document generated from the route table and the GraphQL schema, with request samples", async () => {
      const served = (await (await get(OPENAPI_PATH)).json()) as OpenApiDocument;
      expect(served).toEqual(
        withCodeSamples(buildOpenApiDocument(schema, { origin: PUBLIC_BASE_URL }), OPENAPI_PATH),
      );
    });
  });
});
