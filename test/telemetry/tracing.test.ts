import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { startTracing, type Tracing } from "../../src/telemetry/tracing.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.js";

// The SDK registers its context manager for the whole process: one tracing
// set-up for this file, exporting to a real OTLP/HTTP receiver on localhost.
let receiver: OtlpReceiver;
let tracing: Tracing;
let database: TestDatabase;
let buyer: SeededBuyer;
let app: App;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const config = loadConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "buyer-api-under-test",
  });
  if (!config.tracing) throw new Error("an OTLP endpoint should turn tracing on");
  const logger = pino(
    { level: "info", base: undefined },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  tracing = await startTracing(config.tracing, logger);
  database = await createTestDatabase();
  buyer = await seedBuyer(database);
  await seedOrders(database, buyer, [
    { createdAt: new Date("2026-01-01T00:00:00Z") },
    { createdAt: new Date("2026-01-02T00:00:00Z") },
  ]);
  app = createApp({
    config: testConfig(),
    database,
    logger,
    tracing,
  });
  // Opening and migrating a database takes long on a busy machine.
}, 120_000);

afterAll(async () => {
  await tracing?.shutdown();
  await database?.close();
  await receiver?.close();
});

/** A W3C traceparent as an upstream service would send it: a fresh trace, sampled. */
function upstreamTraceparent(): { header: string; traceId: string; parentId: string } {
  const hex = (bytes: number) =>
    Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
      byte.toString(16).padStart(2, "0"),
    ).join("");
  const traceId = hex(16);
  const parentId = hex(8);
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

async function spansOfTrace(traceId: string, httpSpanName: string): Promise<ReceivedSpan[]> {
  await tracing.forceFlush();
  await receiver.waitForSpan((span) => span.traceId === traceId && span.name === httpSpanName);
  return receiver.spans.filter((span) => span.traceId === traceId);
}

/** The SQL of a read of orders, as Prisma writes it or as a planned read does. */
const READS_ORDERS = /FROM "(public"\.")?orders"/;

/** A span of one SQL statement: Prisma's, or one sent straight to a `pg` pool. */
function isStatement(span: ReceivedSpan): boolean {
  return span.kind === 3 && typeof span.attributes["db.query.text"] === "string";
}

/** True when `ancestor` is `span`'s parent, grandparent, … within `spans`. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, spans: ReceivedSpan[]): boolean {
  let current: ReceivedSpan | undefined = span;
  while (current && current.parentSpanId !== "") {
    if (current.parentSpanId === ancestor.spanId) return true;
    const parentId: string = current.parentSpanId;
    current = spans.find((candidate) => candidate.spanId === parentId);
  }
  return false;
}

function only(spans: ReceivedSpan[], predicate: (span: ReceivedSpan) => boolean, what: string): ReceivedSpan {
  const matching = spans.filter(predicate);
  expect(
    matching.map((span) => span.name),
    what,
  ).toHaveLength(1);
  return matching[0] as ReceivedSpan;
}

describe("tracing with OpenTelemetry, exported over OTLP/HTTP", () => {
  it("follows a REST list request from the caller's traceparent through GraphQL into each SQL query", async () => {
    const upstream = upstreamTraceparent();
    const response = await app.fetch("http://localhost/api/public/buyer/v1/orders?limit=5", {
      headers: { "x-api-key": buyer.apiKey, traceparent: upstream.header },
    });
    expect(response.status).toBe(200);
    const spans = await spansOfTrace(upstream.traceId, "GET /api/public/buyer/v1/orders");

    const http = only(spans, (span) => span.kind === 2, "one server span");
    expect(http).toMatchObject({
      name: "GET /api/public/buyer/v1/orders",
      parentSpanId: upstream.parentId,
      serviceName: "buyer-api-under-test",
      attributes: {
        "http.request.method": "GET",
        "http.route": "/api/public/buyer/v1/orders",
        "http.response.status_code": 200,
        "app.buyer_id": buyer.buyerId,
        "app.request_id": response.headers.get("x-request-id"),
      },
    });
    const execute = only(spans, (span) => span.name === "query.ListOrders", "one execute span");
    expect(execute.parentSpanId).toBe(http.spanId);
    expect(execute.attributes["graphql.execute.operationName"]).toBe("ListOrders");

    // Every SQL statement is in the request's trace: the API-key check under the
    // HTTP span, the operation's reads under the execute span.
    const queries = spans.filter(isStatement);
    for (const query of queries) {
      expect(descendsFrom(query, http, spans)).toBe(true);
      expect(query.attributes["db.query.text"]).toEqual(expect.any(String));
    }
    const keyCheck = queries.find((query) =>
      /api_keys AS k\b/.test(String(query.attributes["db.query.text"])),
    );
    expect(keyCheck, "the API-key check is traced").toBeDefined();
    expect(descendsFrom(keyCheck as ReceivedSpan, execute, spans)).toBe(false);
    // The page is a planned read: one statement, under the execute span.
    const ordersRead = queries.find((query) => READS_ORDERS.test(String(query.attributes["db.query.text"])));
    expect(ordersRead, "the orders read is traced").toBeDefined();
    expect(descendsFrom(ordersRead as ReceivedSpan, execute, spans)).toBe(true);
  });

  it("follows a GraphQL query through parse, validate and execute into its SQL", async () => {
    const upstream = upstreamTraceparent();
    const response = await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: {
        "x-api-key": buyer.apiKey,
        traceparent: upstream.header,
        "content-type": "application/json",
      },
      // Beside a root field that is not a read of rows: the planner refuses the document, so it is executed.
      body: JSON.stringify({
        query:
          'query RecentOrders { orders(first: 2) { nodes { id } } matchProduct(productType: OTHER, rawMaterialName: "Glycerin") { score } }',
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    const spans = await spansOfTrace(upstream.traceId, "POST /graphql");

    const http = only(spans, (span) => span.kind === 2, "one server span");
    expect(http.parentSpanId).toBe(upstream.parentId);
    expect(http.attributes["http.route"]).toBe("/graphql");
    expect(http.attributes["app.buyer_id"]).toBe(buyer.buyerId);
    for (const phase of ["graphql.parse", "graphql.validate"]) {
      expect(only(spans, (span) => span.name === phase, phase).parentSpanId).toBe(http.spanId);
    }
    const execute = only(spans, (span) => span.name === "query.RecentOrders", "one execute span");
    expect(execute.parentSpanId).toBe(http.spanId);
    const ordersRead = spans.find(
      (span) => isStatement(span) && /FROM "public"\."orders"/.test(String(span.attributes["db.query.text"])),
    );
    expect(ordersRead, "the orders read is traced").toBeDefined();
    expect(descendsFrom(ordersRead as ReceivedSpan, execute, spans)).toBe(true);
  });

  it("follows a persisted GraphQL query answered by its planned read into its one statement", async () => {
    const query = "query RecentOrders { orders(first: 2) { edges { node { id orderStatus } } } }";
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "x-api-key": buyer.apiKey, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const { data } = (await (await post({ query })).json()) as { data: unknown };
    const upstream = upstreamTraceparent();
    const sha256Hash = createHash("sha256").update(query).digest("hex");
    const response = await post(
      { query, extensions: { persistedQuery: { version: 1, sha256Hash } } },
      { traceparent: upstream.header },
    );
    expect(((await response.json()) as { data: unknown }).data).toEqual(data);
    const spans = await spansOfTrace(upstream.traceId, "POST /graphql");

    const http = only(spans, (span) => span.kind === 2, "one server span");
    const execute = only(spans, (span) => span.name === "query.RecentOrders", "one execute span");
    expect(execute.parentSpanId).toBe(http.spanId);
    const reads = spans.filter(
      (span) => isStatement(span) && READS_ORDERS.test(String(span.attributes["db.query.text"])),
    );
    expect(reads, "one statement reads the orders").toHaveLength(1);
    expect(descendsFrom(reads[0] as ReceivedSpan, execute, spans)).toBe(true);
    expect(
      spans.some((span) => span.attributes.model === "Order"),
      "no Prisma read of orders",
    ).toBe(false);
  });

  it("never records the API key, and puts the trace id on the request's log line", async () => {
    const upstream = upstreamTraceparent();
    const response = await app.fetch("http://localhost/api/public/buyer/v1/orders?limit=1", {
      headers: { "x-api-key": buyer.apiKey, traceparent: upstream.header },
    });
    expect(response.status).toBe(200);
    const spans = await spansOfTrace(upstream.traceId, "GET /api/public/buyer/v1/orders");
    expect(JSON.stringify(spans)).not.toContain(buyer.apiKey);
    const requestId = response.headers.get("x-request-id");
    const line = logLines.find((entry) => entry.msg === "request" && entry.requestId === requestId);
    expect(line?.traceId).toBe(upstream.traceId);
  });

  it("starts a new trace for a request without traceparent, and marks server errors", async () => {
    const response = await app.fetch("http://localhost/api/public/buyer/v1/no-such-route", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(response.status).toBe(404);
    const requestId = response.headers.get("x-request-id");
    const line = logLines.find((entry) => entry.msg === "request" && entry.requestId === requestId);
    const traceId = String(line?.traceId);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await spansOfTrace(traceId, "GET");
    const http = only(spans, (span) => span.kind === 2, "one server span");
    // An unknown path is no route template: the span is named by the method alone.
    expect(http).toMatchObject({ name: "GET", parentSpanId: "", statusCode: 0 });
    expect(http.attributes["http.response.status_code"]).toBe(404);
  });

  it("counts exported spans in /metrics", async () => {
    await tracing.forceFlush();
    const metrics = await (await app.fetch("http://localhost/metrics")).text();
    const exported = Number(/^tracing_spans_exported_total (\d+)/m.exec(metrics)?.[1]);
    expect(exported).toBeGreaterThan(0);
    expect(metrics).toMatch(/^tracing_spans_dropped_total\{reason="queue_full"\} 0$/m);
  });
});
