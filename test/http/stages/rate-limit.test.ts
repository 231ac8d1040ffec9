// Requests per key per minute: counted in fixed wall-clock minutes; past the
// limit a request is refused 429 with Retry-After the seconds left in the
// minute, and reaches nothing behind the stage.
import { describe, expect, it } from "vitest";
import type { Admission } from "../../../src/http/admission.js";
import { decideRateLimit, rateLimitWindow } from "../../../src/http/rate-limiter.js";
import { rateLimit } from "../../../src/http/stages/rate-limit.js";
import { exchangeFor, stubNext } from "./exchange.js";

const MINUTE = Date.parse("2026-06-01T12:34:00.000Z");

describe("the rate-limit window", () => {
  it("is the wall-clock minute a request falls in", () => {
    expect(rateLimitWindow(MINUTE + 59_999)).toEqual(new Date(MINUTE));
    expect(rateLimitWindow(MINUTE + 60_000)).toEqual(new Date(MINUTE + 60_000));
  });

  it("allows the limit's count, refuses the next, and says when the minute ends (at least 1 s)", () => {
    const start = new Date(MINUTE);
    expect(decideRateLimit(10, 10, start, MINUTE + 15_000)).toEqual({
      allowed: true,
      limit: 10,
      remaining: 0,
      resetSeconds: 45,
    });
    expect(decideRateLimit(11, 10, start, MINUTE + 15_000)).toMatchObject({ allowed: false, remaining: 0 });
    expect(decideRateLimit(3, 10, start, MINUTE + 59_900).resetSeconds).toBe(1);
    expect(decideRateLimit(3, 10, start, MINUTE).remaining).toBe(7);
  });
});

describe("the rate-limit stage", () => {
  const admitted = (count: number): Admission => ({
    viewer: { buyerId: "b", apiKeyId: "k" },
    limit: decideRateLimit(count, 10, new Date(MINUTE), MINUTE + 20_000),
    version: 0n,
    readVersion: 0n,
    walPosition: "0/0",
    counted: true,
  });

  it("passes a request within the limit on", async () => {
    const next = stubNext();
    const exchange = { ...exchangeFor("/api/things/t1"), admission: admitted(10) };
    expect((await rateLimit(exchange, next)).status).toBe(200);
    expect(next.calls).toHaveLength(1);
  });

  it("refuses one past it with 429 and Retry-After, reaching nothing behind it", async () => {
    const next = stubNext();
    const exchange = { ...exchangeFor("/api/things/t1"), admission: admitted(11) };
    const response = await rateLimit(exchange, next);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("40");
    expect(JSON.parse(await response.text())).toMatchObject({
      code: "rate_limited",
      request_id: exchange.requestId,
    });
    expect(next.calls).toHaveLength(0);
  });

  it("passes a request no key admitted on (the stages before it refuse those)", async () => {
    const next = stubNext();
    expect((await rateLimit(exchangeFor("/page"), next)).status).toBe(200);
  });
});
