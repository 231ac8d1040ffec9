// The response cache's memory (docs/design/performance.md, "What performance rests on"): an evicted
// entry gives its bytes back as soon as no answer is sending them, so the cache holds its bound;
// no answer is spoiled by it.
import { describe, expect, it } from "vitest";
import {
  createResponseCache,
  type ResponseCache,
  type ResponseToKeep,
  type WhenSent,
} from "../../src/http/response-cache.js";

const KIB = 1024;
const MIB = 1024 * KIB;

function answer(size: number, fill: string): ResponseToKeep {
  return { status: 200, text: fill.repeat(size), headers: [["content-type", "application/json"]] };
}

const byteOf = (fill: string) => fill.charCodeAt(0);

/** For an answer stored but not sent here: nothing holds its bytes beyond the cache. */
const sentAtOnce = (done: () => void) => done();

function fill(cache: ResponseCache, entries: number): void {
  for (let index = 0; index < entries; index += 1)
    cache.set(`other ${index}`, answer(100 * KIB, "b"), sentAtOnce);
}

describe("response cache", () => {
  // A hit shares the entry's bytes, and so does the miss that stored them.
  const sends = {
    "a hit": (cache: ResponseCache, whenSent: WhenSent) => {
      cache.set("first", answer(100 * KIB, "a"), sentAtOnce);
      return cache.get("first", "identity", whenSent);
    },
    "the miss that stored it": (cache: ResponseCache, whenSent: WhenSent) =>
      cache.set("first", answer(100 * KIB, "a"), whenSent),
  };
  for (const [answering, send] of Object.entries(sends)) {
    it(`keeps the bytes of ${answering} still being sent after its entry is evicted, then gives them back`, () => {
      const cache = createResponseCache(MIB);
      const sent: (() => void)[] = [];
      const served = send(cache, (done) => sent.push(done));
      fill(cache, 40);

      expect(cache.get("first", "identity")).toBeUndefined();
      expect(served?.body.byteLength).toBe(100 * KIB);
      expect(served?.body.every((byte) => byte === byteOf("a"))).toBe(true);

      for (const done of sent) done();
      expect(served?.body.byteLength).toBe(0);
    });
  }

  it("leaves the bytes of an answer whose sending it cannot follow to the garbage collector", () => {
    const cache = createResponseCache(MIB);
    cache.set("first", answer(100 * KIB, "c"), sentAtOnce);
    const served = cache.get("first", "identity");
    fill(cache, 40);

    expect(served?.body.byteLength).toBe(100 * KIB);
    expect(served?.body.every((byte) => byte === byteOf("c"))).toBe(true);
  });

  it("gives evicted bytes back at once: 100 MiB through a 4 MiB cache leaves about 4 MiB held", () => {
    const cache = createResponseCache(4 * MIB);
    const before = process.memoryUsage().arrayBuffers;
    for (let index = 0; index < 400; index += 1)
      cache.set(`page ${index}`, answer(256 * KIB, "e"), sentAtOnce);
    const grown = process.memoryUsage().arrayBuffers - before;

    expect(cache.bytes).toBeLessThanOrEqual(4 * MIB);
    // Without giving them back, dead bytes wait for V8's next full collection: tens of MiB.
    expect(grown).toBeLessThan(12 * MIB);
  });

  it("does not keep, nor encode, a page bigger than an eighth of its bound", () => {
    const cache = createResponseCache(MIB);
    const before = process.memoryUsage().arrayBuffers;

    expect(cache.set("big", answer(MIB / 8 + 1, "f"), sentAtOnce)).toBeUndefined();
    expect(cache.get("big", "identity")).toBeUndefined();
    expect(cache.bytes).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MIB / 8);
  });

  it("gives back at once a page whose text fits but whose UTF-8 bytes do not", () => {
    const cache = createResponseCache(MIB);
    const before = process.memoryUsage().arrayBuffers;

    // 100,000 characters of two bytes each: under 128 KiB as text, over it as bytes.
    expect(cache.set("accents", answer(100_000, "é"), sentAtOnce)).toBeUndefined();
    expect(cache.bytes).toBe(0);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(100_000);
  });
});

describe("response cache, codings", () => {
  const coded = (size: number): ResponseToKeep => ({
    status: 200,
    headers: [["content-type", "application/json"]],
    coding: "br",
    body: new Uint8Array(size).fill(7),
    plainBytes: size * 8,
  });

  it("holds a page only in the coding it was asked in, and hands back those very bytes on every hit", () => {
    const cache = createResponseCache(MIB);
    const stored = cache.set("page", coded(10 * KIB), sentAtOnce);
    const held = cache.bytes;

    const first = cache.get("page", "br", sentAtOnce);
    const second = cache.get("page", "br", sentAtOnce);
    expect(first?.coding).toBe("br");
    expect(first?.body).toBe(stored?.body);
    expect(second?.body).toBe(stored?.body);
    expect(held).toBeLessThan(11 * KIB);
    expect(cache.bytes).toBe(held);
  });

  it("offers the coding it holds for another one, then keeps that other beside it, counted", () => {
    const cache = createResponseCache(MIB);
    cache.set("page", coded(10 * KIB), sentAtOnce);
    const held = cache.bytes;

    expect(cache.get("page", "identity")?.coding).toBe("br");
    const plain = cache.add("page", "identity", new Uint8Array(60 * KIB), sentAtOnce);
    expect(plain?.coding).toBe("identity");
    expect(cache.bytes).toBe(held + 60 * KIB);
    expect(cache.get("page", "identity")?.body).toBe(plain?.body);
    expect(cache.get("page", "br")?.body.byteLength).toBe(10 * KIB);
  });

  it("does not grow an entry past an eighth of its bound, and keeps the codings it had", () => {
    const cache = createResponseCache(MIB);
    cache.set("page", coded(10 * KIB), sentAtOnce);

    expect(cache.add("page", "identity", new Uint8Array(MIB / 8), sentAtOnce)).toBeUndefined();
    expect(cache.get("page", "br")?.body.byteLength).toBe(10 * KIB);
    expect(cache.get("page", "identity")?.coding).toBe("br");
  });

  it("gives back every coding's bytes of an evicted entry once no answer is sending them", () => {
    const cache = createResponseCache(MIB);
    const sent: (() => void)[] = [];
    const brotli = cache.set("page", coded(10 * KIB), (done) => sent.push(done));
    const plain = cache.add("page", "identity", new Uint8Array(60 * KIB), (done) => sent.push(done));
    fill(cache, 40);

    expect(brotli?.body.byteLength).toBe(10 * KIB);
    expect(plain?.body.byteLength).toBe(60 * KIB);
    for (const done of sent) done();
    expect(brotli?.body.byteLength).toBe(0);
    expect(plain?.body.byteLength).toBe(0);
  });
});
