// The conditional-GET stage: a request admitted uncounted because its
// If-None-Match claimed its read's current version gets a 304, free, and
// reaches nothing behind the stage; a counted request goes on as it is.
import { describe, expect, it } from "vitest";
import type { Admission, Gate } from "../../../src/http/admission.js";
import { createConditionalGets } from "../../../src/http/conditional-get.js";
import { decideRateLimit } from "../../../src/http/rate-limiter.js";
import { createResponseCache } from "../../../src/http/response-cache.js";
import { conditionalGet } from "../../../src/http/stages/conditional-get.js";
import { exchangeFor, PUBLIC_ORIGIN, stubNext } from "./exchange.js";

const conditionalGets = createConditionalGets({
  salt: "stages",
  cache: createResponseCache(1024 * 1024),
  counters: { notModified() {}, hit() {}, miss() {} },
});

/** Admission is not asked again on these paths: counting a request here would be a bug. */
const gate: Gate = {
  admit: () => Promise.reject(new Error("admitted twice")),
  count: () => Promise.reject(new Error("counted a request that needs no counting")),
  admittedLately: () => false,
};

const admitted = (counted: boolean, readVersion = 7n): Admission => ({
  viewer: { buyerId: "buyer-a", apiKeyId: "key-a" },
  limit: decideRateLimit(counted ? 3 : 2, 10, new Date(0), 20_000),
  version: readVersion,
  readVersion,
  walPosition: "0/0",
  counted,
});

const currentTag = conditionalGets.entityTag(new URL(`${PUBLIC_ORIGIN}/api/things/t1`), {
  buyerId: "buyer-a",
  version: 7n,
});

describe("the conditional-GET stage", () => {
  it("answers 304 with the tag the client holds to an uncounted request naming the current version", async () => {
    const coded = `${currentTag.slice(0, -1)}-gz"`;
    const next = stubNext();
    const exchange = {
      ...exchangeFor("/api/things/t1", { headers: { "if-none-match": coded } }),
      admission: admitted(false),
    };
    const response = await conditionalGet({ gate, conditionalGets })(exchange, next);
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe(coded);
    expect(next.calls).toHaveLength(0);
    expect(exchange.admission.counted).toBe(false);
  });

  it("passes a counted request on, whatever its If-None-Match", async () => {
    const next = stubNext();
    const exchange = {
      ...exchangeFor("/api/things/t1", { headers: { "if-none-match": currentTag } }),
      admission: admitted(true),
    };
    expect((await conditionalGet({ gate, conditionalGets })(exchange, next)).status).toBe(200);
    expect(next.calls).toHaveLength(1);
  });

  it("passes a request no key admitted on, for the endpoint to refuse", async () => {
    const next = stubNext();
    const exchange = exchangeFor("/api/things/t1", { headers: { "if-none-match": currentTag } });
    expect((await conditionalGet({ gate, conditionalGets })(exchange, next)).status).toBe(200);
    expect(next.calls).toHaveLength(1);
  });
});
