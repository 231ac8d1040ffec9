// The pages beside the APIs, each answered in process without a key: health,
// GET /metrics (behind a bearer token when METRICS_TOKEN is set), and the API
// reference (the OpenAPI document, the Redoc page and its scripts, each
// cached as its URL allows). The database is never asked for any of these.
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/http/metrics.js";
import { createRequestOrigin } from "../../src/http/request-origin.js";
import { createRouter } from "../../src/http/router.js";
import { serviceRoutes } from "../../src/http/service-endpoints.js";
import { notFound } from "../../src/http/stages/not-found.js";
import { createRouting } from "../../src/http/stages/routing.js";

const DOCUMENT_PATH = "/api/public/buyer/v1/openapi.json";
const DOCUMENT = JSON.stringify({ openapi: "3.1.0", info: { title: "Buyer Public API", version: "1" } });
const TOKEN = "metrics-token-0123456789";

/** What the database would be asked by /readyz only: none of these pages may reach it. */
const untouchedDatabase = {
  ping: () => Promise.reject(new Error("the database was asked")),
  replicas: () => {
    throw new Error("the database was asked");
  },
};

function servicePages(metricsToken: string | null) {
  const metrics = createMetrics();
  metrics.observeRequest("/healthz", "GET", 200, 0.001);
  const routing = createRouting(
    createRouter(
      serviceRoutes({
        database: untouchedDatabase,
        metrics,
        metricsToken,
        documentPath: DOCUMENT_PATH,
        documentJson: DOCUMENT,
        graphiql: true,
      }),
      () => notFound,
    ),
    createRequestOrigin({ publicBaseUrl: "https://api.example.test", trustProxy: false }),
  );
  return (path: string, init: RequestInit = {}) => {
    const exchange = routing(new Request(`http://localhost${path}`, init), {}, undefined);
    return exchange.route.target.handle(exchange);
  };
}

describe("the service's own pages", () => {
  it("answer /healthz with ok and nothing else", async () => {
    const response = await servicePages(null)("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serve the metrics in Prometheus' text format to anyone when METRICS_TOKEN is unset", async () => {
    const response = await servicePages(null)("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toContain(
      'http_requests_total{route="/healthz",method="GET",status="200"} 1',
    );
  });

  it("need the bearer token for the metrics when METRICS_TOKEN is set", async () => {
    const page = servicePages(TOKEN);
    for (const authorization of [undefined, "Bearer nope", `Bearer ${TOKEN}x`, TOKEN, `bearer  ${TOKEN}`]) {
      const refused = await page("/metrics", authorization ? { headers: { authorization } } : {});
      expect(refused.status).toBe(401);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(await refused.json()).toMatchObject({
        code: "unauthenticated",
        detail: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>",
      });
    }
    const right = await page("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("http_requests_total");
  });

  it("serve the OpenAPI document as it is, revalidated before each use", async () => {
    const response = await servicePages(null)(DOCUMENT_PATH);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(await response.text()).toBe(DOCUMENT);
  });

  it("serve the reference page with a policy that loads only its own scripts, which fetch the document", async () => {
    const page = servicePages(null);
    const html = await (await page("/docs")).text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => match[1] ?? "");
    expect(scripts).toHaveLength(2);
    const [bundle = "", init = ""] = scripts;
    expect(bundle).toMatch(/^\/docs\/redoc\.standalone\.[0-9a-f]{12}\.js$/);
    const bundleResponse = await page(bundle);
    expect(bundleResponse.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await bundleResponse.text()).toContain("Redoc");
    expect(await (await page(init)).text()).toContain(`fetch(${JSON.stringify(DOCUMENT_PATH)})`);
    expect((await page("/docs")).headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("send /docs/ to /docs, and refuse anything but GET and HEAD on the reference with 405", async () => {
    const page = servicePages(null);
    const slash = await page("/docs/");
    expect(slash.status).toBe(308);
    expect(slash.headers.get("location")).toBe("/docs");
    const posted = await page(DOCUMENT_PATH, { method: "POST", body: "{}" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD");
  });
});
