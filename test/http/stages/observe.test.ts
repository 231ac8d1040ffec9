// Every request is counted, timed, logged and its span ended, labelled with the
// router's template for its path.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../../src/http/metrics.js";
import { CLIENT_CLOSED_REQUEST } from "../../../src/http/stages/errors.js";
import { observe } from "../../../src/http/stages/observe.js";
import type { RequestOutcome } from "../../../src/telemetry/tracing-types.js";
import { exchangeFor, stubNext } from "./exchange.js";

function observed() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: "info", base: undefined },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  const metrics = createMetrics();
  return { lines, metrics, stage: observe({ metrics, logger }) };
}

describe("the observation stage", () => {
  it("counts a request under its route template, and logs it with its path", async () => {
    const { lines, metrics, stage } = observed();
    const exchange = exchangeFor("/api/things/t1?secret=no", { headers: { "x-request-id": "obs-1" } });
    await stage(exchange, stubNext());
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_requests_total{route="/api/things/{id}",method="GET",status="200"} 1');
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        msg: "request",
        requestId: "obs-1",
        method: "GET",
        path: "/api/things/t1",
        status: 200,
        durationMs: expect.any(Number),
        buyerId: null,
      },
    ]);
  });

  it("labels every path no route has 'unmatched', so that scanning cannot add series", async () => {
    const { metrics, stage } = observed();
    for (const path of ["/wp-admin", "/.env", "/api/things/t1/x"])
      await stage(
        exchangeFor(path),
        stubNext(() => new Response(null, { status: 404 })),
      );
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 3');
  });

  it("records the status the errors stage set (499) rather than the answer's, and ends the span", async () => {
    const { lines, metrics, stage } = observed();
    const ended: RequestOutcome[] = [];
    const span = { traceId: "trace-1", end: (outcome: RequestOutcome) => void ended.push(outcome) };
    const exchange = { ...exchangeFor("/api/other"), span };
    await stage(
      exchange,
      stubNext((current) => {
        current.recordedStatus = CLIENT_CLOSED_REQUEST;
        return new Response(null, { status: 500 });
      }),
    );
    expect(await metrics.registry.metrics()).toContain(
      'http_requests_total{route="/api/other",method="GET",status="499"} 1',
    );
    expect(ended).toEqual([
      { route: "/api/other", status: 499, buyerId: null, requestId: exchange.requestId },
    ]);
    expect(lines[0]).toMatchObject({ status: 499, traceId: "trace-1", buyerId: null });
  });

  it("ends the span of an unmatched path without a route", async () => {
    const { stage } = observed();
    const ended: RequestOutcome[] = [];
    const exchange = {
      ...exchangeFor("/nowhere"),
      span: { traceId: "t", end: (o: RequestOutcome) => void ended.push(o) },
    };
    await stage(
      exchange,
      stubNext(() => new Response(null, { status: 404 })),
    );
    expect(ended[0]?.route).toBeNull();
  });
});
