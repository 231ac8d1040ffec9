// The parse cache is bounded by the memory its documents take, not by their
// number: many distinct large documents cannot fill the server's memory, and
// a document sent again is answered from the cache while it fits.
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { boundedDocumentCache, stringBytes } from "../../src/graphql/document-cache.js";

/** The cache's two halves, which the cache always has (Yoga's type has them optional). */
function opened(maxBytes: number) {
  const cache = boundedDocumentCache(maxBytes);
  const { documentCache, errorCache } = cache;
  if (!documentCache || !errorCache) throw new Error("a bounded cache keeps documents and errors");
  return { documentCache, errorCache, bytes: () => cache.bytes };
}

const documentOf = (fields: number) => `{ ${Array.from({ length: fields }, (_, i) => `f${i}`).join(" ")} }`;

describe("the parse cache", () => {
  it("returns a document parsed before, and a parse error seen before, by the document's text", () => {
    const cache = opened(1_000_000);
    const text = documentOf(3);
    const document = parse(text);
    cache.documentCache.set(text, document);
    expect(cache.documentCache.get(text)).toBe(document);
    const error = new Error("Syntax Error");
    cache.errorCache.set("{", error);
    expect(cache.errorCache.get("{")).toBe(error);
    expect(cache.documentCache.get("{")).toBeUndefined();
    expect(cache.errorCache.get(text)).toBeUndefined();
  });

  it("counts each document by its text and its tokens, and stays within its budget", () => {
    const budget = 200_000;
    const cache = opened(budget);
    const small = documentOf(2);
    cache.documentCache.set(small, parse(small));
    expect(cache.bytes()).toBeGreaterThan(stringBytes(small));
    for (let round = 0; round < 200; round += 1) {
      const text = `${documentOf(50)} # ${round}`;
      cache.documentCache.set(text, parse(text));
      expect(cache.bytes()).toBeLessThanOrEqual(budget);
    }
    // The least recently used went first.
    expect(cache.documentCache.get(small)).toBeUndefined();
  });

  it("does not keep a document larger than the whole budget", () => {
    const cache = opened(10_000);
    const text = documentOf(200);
    cache.documentCache.set(text, parse(text));
    expect(cache.documentCache.get(text)).toBeUndefined();
    expect(cache.bytes()).toBe(0);
  });
});
