// The spans the service starts itself, recorded in memory: one per HTTP
// request (named by its route, continuing the caller's trace, never recording
// the query string or headers), one per planned REST execution, and one per
// webhook delivery attempt; each marked failed when the user would say so.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { parse } from "graphql";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  tracePlannedExecution,
  traceRequestIn,
  traceWebhookDeliveryIn,
} from "../../src/telemetry/sdk-spans.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer("test");
const propagator = new W3CTraceContextPropagator();

beforeEach(() => exporter.reset());
afterAll(() => provider.shutdown());

const finished = () => exporter.getFinishedSpans();

describe("the span of an HTTP request", () => {
  const request = (init: RequestInit = {}) =>
    new Request("https://api.example.test/api/public/buyer/v1/orders/o1?cursor=secret", {
      ...init,
      headers: { "x-api-key": "bpk_secret_key", ...(init.headers as Record<string, string>) },
    });

  it("is a server span named by the method and route, with the path but not the query string or the key", async () => {
    await traceRequestIn(tracer, null, request(), async (span) => {
      span.end({
        route: "/api/public/buyer/v1/orders/{id}",
        status: 200,
        buyerId: "buyer-1",
        requestId: "req-1",
      });
      return new Response("{}");
    });
    const [span] = finished();
    expect(span?.name).toBe("GET /api/public/buyer/v1/orders/{id}");
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.attributes).toEqual({
      "http.request.method": "GET",
      "url.scheme": "https",
      "url.path": "/api/public/buyer/v1/orders/o1",
      "http.route": "/api/public/buyer/v1/orders/{id}",
      "http.response.status_code": 200,
      "app.request_id": "req-1",
      "app.buyer_id": "buyer-1",
    });
    expect(JSON.stringify(span?.attributes)).not.toMatch(/secret/);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("keeps the method alone as its name when no route matched, and ends once", async () => {
    await traceRequestIn(tracer, null, request({ method: "POST" }), async (span) => {
      span.end({ route: null, status: 404, buyerId: null, requestId: "req-2" });
      span.end({ route: "/late", status: 500, buyerId: null, requestId: "req-2" });
      return new Response(null, { status: 404 });
    });
    expect(finished().map((span) => span.name)).toEqual(["POST"]);
    expect(finished()[0]?.attributes["http.route"]).toBeUndefined();
  });

  it("continues the caller's trace from traceparent, and starts a new one without it", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const traceparent = `00-${traceId}-b7ad6b7169203331-01`;
    const seen: string[] = [];
    const sent: Record<string, string>[] = [{ traceparent }, {}];
    for (const headers of sent)
      await traceRequestIn(tracer, propagator, request({ headers }), async (span) => {
        seen.push(span.traceId);
        return new Response("{}");
      });
    expect(seen[0]).toBe(traceId);
    expect(seen[1]).not.toBe(traceId);
    expect(finished()[0]?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
  });

  it("ignores a caller's traceparent when incoming traces are not continued", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    await traceRequestIn(
      tracer,
      null,
      request({ headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } }),
      async (span) => {
        expect(span.traceId).not.toBe(traceId);
        return new Response("{}");
      },
    );
    expect(finished()[0]?.parentSpanContext).toBeUndefined();
  });

  it("is failed for a 5xx answer and for a handler that threw, not for a 4xx", async () => {
    for (const status of [503, 422])
      await traceRequestIn(tracer, null, request(), async (span) => {
        span.end({ route: "/x", status, buyerId: null, requestId: `req-${status}` });
        return new Response(null, { status });
      });
    await expect(
      traceRequestIn(tracer, null, request(), async () => {
        throw new Error("broken");
      }),
    ).rejects.toThrow("broken");
    const [unavailable, refused, threw] = finished();
    expect(unavailable?.status.code).toBe(SpanStatusCode.ERROR);
    expect(unavailable?.attributes["error.type"]).toBe("503");
    expect(refused?.status.code).toBe(SpanStatusCode.UNSET);
    expect(threw?.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("the span of a planned REST execution", () => {
  const operation = (source: string) => {
    const [definition] = parse(source).definitions;
    if (definition?.kind !== "OperationDefinition") throw new Error("not an operation");
    return definition;
  };

  it("is named and attributed like a /graphql execute span, marked planned", async () => {
    await tracePlannedExecution(tracer, operation("query RecentOrders { orders { id } }"), async () => ({
      data: {},
    }));
    const [span] = finished();
    expect(span?.name).toBe("query.RecentOrders");
    expect(span?.attributes).toEqual({
      "graphql.execute.operationName": "RecentOrders",
      "graphql.execute.operationType": "query",
      "graphql.execute.planned": true,
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("is failed when the result has errors, and calls an unnamed operation anonymous", async () => {
    await tracePlannedExecution(tracer, operation("{ orders { id } }"), async () => ({
      errors: [{ message: "no" }],
    }));
    expect(finished()[0]?.name).toBe("query.anonymous");
    expect(finished()[0]?.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("the span of a webhook delivery attempt", () => {
  const delivery = {
    deliveryId: "d1",
    eventId: "e1",
    eventType: "order.updated",
    endpointId: "w1",
    host: "hooks.example.com",
  };

  it("is a client span naming the delivery and the receiver's host, with the receiver's status", async () => {
    await traceWebhookDeliveryIn(tracer, delivery, async () => ({ statusCode: 204, error: null }));
    const [span] = finished();
    expect(span?.name).toBe("webhook deliver");
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toEqual({
      "app.webhook.delivery_id": "d1",
      "app.webhook.event_id": "e1",
      "app.webhook.event_type": "order.updated",
      "app.webhook.endpoint_id": "w1",
      "server.address": "hooks.example.com",
      "http.response.status_code": 204,
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("is failed for a non-2xx answer and for no answer, saying which", async () => {
    await traceWebhookDeliveryIn(tracer, delivery, async () => ({ statusCode: 500, error: null }));
    await traceWebhookDeliveryIn(tracer, delivery, async () => ({ statusCode: null, error: "timed out" }));
    const [refused, silent] = finished();
    expect(refused?.attributes["error.type"]).toBe("500");
    expect(refused?.status.code).toBe(SpanStatusCode.ERROR);
    expect(silent?.attributes["error.type"]).toBe("no_answer");
    expect(silent?.status).toEqual({ code: SpanStatusCode.ERROR, message: "timed out" });
  });
});
