// The response-cache stage: an admitted, versioned read is answered from the
// cache while the buyer's data is unchanged, in a coding the request accepts,
// with its ETag; anything else goes to the endpoint as it is.
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Admission } from "../../../src/http/admission.js";
import { createCompression } from "../../../src/http/compression.js";
import { createConditionalGets } from "../../../src/http/conditional-get.js";
import { decideRateLimit } from "../../../src/http/rate-limiter.js";
import { createResponseCache } from "../../../src/http/response-cache.js";
import { responseCache } from "../../../src/http/stages/response-cache.js";
import { exchangeFor, stubNext } from "./exchange.js";

const page = JSON.stringify(Array.from({ length: 100 }, (_, index) => ({ index, name: `thing ${index}` })));
const pageAnswer = () => new Response(page, { headers: { "content-type": "application/json" } });

const admitted = (version: bigint, buyerId = "buyer-a"): Admission => ({
  viewer: { buyerId, apiKeyId: `key of ${buyerId}` },
  limit: decideRateLimit(1, 10, new Date(0), 20_000),
  version,
  readVersion: version,
  walPosition: "0/0",
  counted: true,
});

function cachedStage() {
  return responseCache({
    conditionalGets: createConditionalGets({
      salt: "stages",
      cache: createResponseCache(1024 * 1024),
      counters: { notModified() {}, hit() {}, miss() {} },
    }),
    compression: createCompression(true),
  });
}

describe("the response-cache stage", () => {
  it("answers a repeated read of the same version without reaching the endpoint, tagged", async () => {
    const stage = cachedStage();
    const next = stubNext(pageAnswer);
    const read = () => stage({ ...exchangeFor("/api/things/t1"), admission: admitted(7n) }, next);
    const first = await read();
    const second = await read();
    expect(next.calls).toHaveLength(1);
    expect(await second.text()).toBe(page);
    expect(second.headers.get("etag")).toMatch(/^"7-[0-9a-f]{16}"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("reaches the endpoint again for a new version of the data, and for another buyer", async () => {
    const stage = cachedStage();
    const next = stubNext(pageAnswer);
    for (const admission of [admitted(7n), admitted(8n), admitted(8n, "buyer-b")])
      await stage({ ...exchangeFor("/api/things/t1"), admission }, next);
    expect(next.calls).toHaveLength(3);
  });

  it("answers in the coding the request prefers, with that coding's tag", async () => {
    const stage = cachedStage();
    const next = stubNext(pageAnswer);
    await stage({ ...exchangeFor("/api/things/t1"), admission: admitted(7n) }, next);
    const coded = await stage(
      {
        ...exchangeFor("/api/things/t1", { headers: { "accept-encoding": "gzip;q=0.5, br" } }),
        admission: admitted(7n),
      },
      next,
    );
    expect(next.calls).toHaveLength(1);
    expect(coded.headers.get("content-encoding")).toBe("br");
    expect(coded.headers.get("etag")).toMatch(/^"7-[0-9a-f]{16}-br"$/);
    expect(brotliDecompressSync(Buffer.from(await coded.arrayBuffer())).toString()).toBe(page);
  });

  it("leaves unversioned reads, writes and unadmitted requests to the endpoint each time", async () => {
    const stage = cachedStage();
    const next = stubNext(pageAnswer);
    const requests = [
      { ...exchangeFor("/api/other"), admission: admitted(7n) },
      { ...exchangeFor("/api/things/t1", { method: "PATCH", body: "{}" }), admission: admitted(7n) },
      exchangeFor("/api/things/t1"),
    ];
    for (const exchange of [...requests, ...requests]) {
      const response = await stage(exchange, next);
      expect(response.headers.get("etag")).toBeNull();
    }
    expect(next.calls).toHaveLength(6);
  });
});
