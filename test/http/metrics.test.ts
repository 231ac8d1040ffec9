// What a scrape of GET /metrics reads, in Prometheus' text format, from the
// process's own counters: requests by route template, method and status with
// their latency; GraphQL operations by type and outcome; 304s and the
// response cache; webhook deliveries; read replicas; write timeouts.
import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/http/metrics.js";

describe("the metrics text", () => {
  it("counts requests under their route template, method and status, and times them in buckets", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("/api/public/buyer/v1/orders/{id}", "GET", 200, 0.02);
    metrics.observeRequest("/api/public/buyer/v1/orders/{id}", "GET", 200, 0.3);
    metrics.observeRequest("/api/public/buyer/v1/orders/{id}", "PATCH", 422, 0.001);
    metrics.observeRequest("unmatched", "GET", 404, 0.001);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="GET",status="200"} 2',
    );
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="PATCH",status="422"} 1',
    );
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    const bucket = (le: string) =>
      `http_request_duration_seconds_bucket{le="${le}",route="/api/public/buyer/v1/orders/{id}",method="GET"}`;
    expect(text).toContain(`${bucket("0.025")} 1`);
    expect(text).toContain(`${bucket("0.5")} 2`);
    expect(text).toContain(`${bucket("+Inf")} 2`);
    expect(metrics.registry.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("shows the process's memory by kind and Node's runtime metrics", async () => {
    const text = await createMetrics().registry.metrics();
    for (const kind of ["rss", "heap_total", "heap_used", "external", "array_buffers"])
      expect(text).toMatch(new RegExp(`^process_memory_bytes\\{kind="${kind}"\\} \\d+`, "m"));
    expect(text).toContain("process_resident_memory_bytes");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
  });

  it("counts 304s, response cache hits and misses, and the bytes the cache holds when scraped", async () => {
    const metrics = createMetrics();
    metrics.conditionalGets.notModified();
    metrics.conditionalGets.hit();
    metrics.conditionalGets.hit();
    metrics.conditionalGets.miss();
    let held = 1234;
    metrics.watchResponseCacheBytes(() => held);
    expect(await metrics.registry.metrics()).toMatch(
      /^http_not_modified_total 1$[\s\S]*^http_response_cache_hits_total 2$[\s\S]*^http_response_cache_misses_total 1$[\s\S]*^http_response_cache_bytes 1234$/m,
    );
    held = 0;
    expect(await metrics.registry.metrics()).toMatch(/^http_response_cache_bytes 0$/m);
  });

  it("counts webhook attempts by outcome, the events rendered, and the changes still to render", async () => {
    const metrics = createMetrics();
    metrics.observeWebhookAttempt("delivered", 0.2);
    metrics.observeWebhookAttempt("failed", 10);
    metrics.observeWebhookAttempt("delivered", 0.05);
    metrics.observeEventRendering({ entries: 40, events: 12 });
    metrics.watchUnrenderedChanges(async () => 7);
    const text = await metrics.registry.metrics();
    expect(text).toContain('webhook_delivery_attempts_total{outcome="delivered"} 2');
    expect(text).toContain('webhook_delivery_attempts_total{outcome="failed"} 1');
    expect(text).toContain("webhook_delivery_duration_seconds_count 3");
    expect(text).toContain("webhook_events_rendered_total 12");
    expect(text).toContain('webhook_render_batch_entries_bucket{le="50"} 1');
    expect(text).toMatch(/^webhook_changes_unrendered 7$/m);
  });

  it("shows each replica's state and lag, and the reads each server served; no replica series without replicas", async () => {
    const metrics = createMetrics();
    expect(await metrics.registry.metrics()).not.toMatch(/^database_replica_up\{/m);
    metrics.watchDatabaseReads(() => ({
      replicas: [
        { name: "r1:5432/api", state: "in_use", reason: null, lagSeconds: 0.5, lagVersions: 0 },
        {
          name: "r2:5432/api",
          state: "unreachable",
          reason: "connect ECONNREFUSED",
          lagSeconds: null,
          lagVersions: null,
        },
      ],
      served: new Map([
        ["primary", 10],
        ["r1:5432/api", 30],
      ]),
    }));
    const text = await metrics.registry.metrics();
    expect(text).toContain('database_replica_up{replica="r1:5432/api"} 1');
    expect(text).toContain('database_replica_up{replica="r2:5432/api"} 0');
    expect(text).toContain('database_replica_lag_seconds{replica="r1:5432/api"} 0.5');
    // A lag not yet known is no series, not a zero.
    expect(text).not.toContain('database_replica_lag_seconds{replica="r2:5432/api"}');
    expect(text).toContain('database_reads_total{server="primary"} 10');
    expect(text).toContain('database_reads_total{server="r1:5432/api"} 30');
  });

  it("counts connections closed for reading an answer too slowly", async () => {
    const metrics = createMetrics();
    metrics.countWriteTimeout();
    metrics.countWriteTimeout();
    expect(await metrics.registry.metrics()).toMatch(/^http_write_timeouts_total 2$/m);
  });
});

describe("GraphQL operations in the metrics", () => {
  it("are counted by operation type and outcome, whatever the operation is called", async () => {
    const metrics = createMetrics();
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: "type Query { ok: Int, broken: Int } type Mutation { touch: Int }",
        resolvers: {
          Query: {
            ok: () => 1,
            broken: () => {
              throw new Error("broken");
            },
          },
          Mutation: { touch: () => 2 },
        },
      }),
      plugins: [metrics.graphqlPlugin],
      maskedErrors: true,
      logging: false,
    });
    const run = (query: string, operationName?: string) =>
      yoga.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, operationName }),
      });
    await run("query Mine { ok }");
    await run("{ ok }");
    await run("{ broken }");
    await run("mutation { touch }");
    await run("query A { ok } mutation B { touch }", "B");
    const text = await metrics.registry.metrics();
    expect(text).toContain('graphql_operations_total{type="query",outcome="ok"} 2');
    expect(text).toContain('graphql_operations_total{type="query",outcome="error"} 1');
    expect(text).toContain('graphql_operations_total{type="mutation",outcome="ok"} 2');
  });
});
