// The response cache's memory (docs/performance.md, "Third pass: the cache's memory"): an evicted
// entry gives its bytes back as soon as no answer is sending them, so the cache holds its bound;
// no answer is spoiled by it.
import { describe, expect, it } from "vitest";
import { type CachedResponse, createResponseCache } from "../../src/http/response-cache.js";

const KIB = 1024;
const MIB = 1024 * KIB;

function answer(size: number, fill: number): CachedResponse {
  return {
    status: 200,
    body: new Uint8Array(size).fill(fill),
    headers: [["content-type", "application/json"]],
  };
}

function fill(cache: ReturnType<typeof createResponseCache>, entries: number): void {
  for (let index = 0; index < entries; index += 1) cache.set(`other ${index}`, answer(100 * KIB, 2));
}

describe("response cache", () => {
  it("keeps the bytes of an answer still being sent after its entry is evicted, then gives them back", () => {
    const cache = createResponseCache(MIB);
    cache.set("first", answer(100 * KIB, 1));
    const sent: (() => void)[] = [];
    const served = cache.get("first", (done) => sent.push(done));
    fill(cache, 40);

    expect(cache.get("first")).toBeUndefined();
    expect(served?.body.byteLength).toBe(100 * KIB);
    expect(served?.body.every((byte) => byte === 1)).toBe(true);

    for (const done of sent) done();
    expect(served?.body.byteLength).toBe(0);
  });

  it("leaves the bytes of an answer whose sending it cannot follow to the garbage collector", () => {
    const cache = createResponseCache(MIB);
    cache.set("first", answer(100 * KIB, 3));
    const served = cache.get("first");
    fill(cache, 40);

    expect(served?.body.byteLength).toBe(100 * KIB);
    expect(served?.body.every((byte) => byte === 3)).toBe(true);
  });

  it("gives evicted bytes back at once: 100 MiB through a 4 MiB cache leaves about 4 MiB held", () => {
    const cache = createResponseCache(4 * MIB);
    const before = process.memoryUsage().arrayBuffers;
    for (let index = 0; index < 400; index += 1) cache.set(`page ${index}`, answer(256 * KIB, 5));
    const grown = process.memoryUsage().arrayBuffers - before;

    expect(cache.bytes).toBeLessThanOrEqual(4 * MIB);
    // Without giving them back, dead bytes wait for V8's next full collection: tens of MiB.
    expect(grown).toBeLessThan(12 * MIB);
  });
});
