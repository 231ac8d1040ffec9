import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

describe("GET /metrics", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let open: App;
  let guarded: App;
  const token = "metrics-token-0123456789";

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Metrics");
    const base = loadConfig({});
    const logger = createLogger("silent");
    open = createApp({ config: base, database, logger });
    guarded = createApp({ config: { ...base, metricsToken: token }, database, logger });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts requests by route and status, latency, and GraphQL operations, in Prometheus format", async () => {
    const key = { "x-api-key": buyer.apiKey };
    await open.fetch("http://localhost/api/public/buyer/v1/orders", { headers: key });
    await open.fetch(`http://localhost/api/public/buyer/v1/orders/${buyer.approvalId}`, {
      method: "PATCH",
      headers: { ...key, "content-type": "application/json" },
      body: "{}",
    });
    await open.fetch("http://localhost/no/such/path/123");
    await open.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ orders { edges { node { id } } } }" }),
    });
    const response = await open.fetch("http://localhost/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders",method="GET",status="200"} 1',
    );
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="PATCH",status="404"} 1',
    );
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/public\/buyer\/v1\/orders",method="GET"\} 1/,
    );
    expect(text).toContain('graphql_operations_total{type="query",outcome="ok"} 1');
    expect(text).toContain("process_resident_memory_bytes");
  });

  it("needs the bearer token when METRICS_TOKEN is set", async () => {
    expect((await guarded.fetch("http://localhost/metrics")).status).toBe(401);
    const wrong = await guarded.fetch("http://localhost/metrics", {
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    const right = await guarded.fetch("http://localhost/metrics", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.status).toBe(200);
  });
});
