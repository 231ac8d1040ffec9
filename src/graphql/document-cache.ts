import type { DocumentNode } from "graphql";
import type { YogaServerOptions } from "graphql-yoga";
import { LRUCache } from "lru-cache";

/**
 * What graphql-js's syntax tree of a document takes per token, locations
 * included, rounded up from measurement: a document at the default token
 * limit takes about a megabyte.
 */
const BYTES_PER_TOKEN = 600;

/** Yoga's `parserAndValidationCache` option in its object form (the type is not exported by name). */
type ParseCacheOptions = Exclude<
  NonNullable<YogaServerOptions<Record<string, never>, Record<string, never>>["parserAndValidationCache"]>,
  boolean
>;

/** What a string may take in memory: two bytes per UTF-16 unit. */
export function stringBytes(text: string): number {
  return 2 * text.length;
}

function tokenCount(document: DocumentNode): number {
  let count = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) count += 1;
  return count;
}

/**
 * Yoga's parse cache (documents and parse errors by their text, so that a
 * document sent again is not parsed again), bounded by estimated bytes rather
 * than Yoga's default of a thousand entries of any size: distinct documents
 * near the token or body limit would otherwise hold a megabyte each. Both
 * share one budget; the least recently used go first.
 */
export function boundedDocumentCache(maxBytes: number): ParseCacheOptions & {
  /** Estimated bytes held now. */
  readonly bytes: number;
} {
  const cache = new LRUCache<string, DocumentNode | Error>({
    maxSize: maxBytes,
    sizeCalculation: (value, text) =>
      Math.max(1, stringBytes(text) + (value instanceof Error ? 0 : BYTES_PER_TOKEN * tokenCount(value))),
  });
  // A document larger than the whole budget is not kept (lru-cache refuses it), and parsed again when sent again.
  return {
    documentCache: {
      get: (text) => {
        const value = cache.get(text);
        return value instanceof Error ? undefined : value;
      },
      set: (text, document) => {
        cache.set(text, document);
      },
    },
    errorCache: {
      get: (text) => {
        const value = cache.get(text);
        return value instanceof Error ? value : undefined;
      },
      set: (text, error) => {
        if (error instanceof Error) cache.set(text, error);
      },
    },
    validationCache: true,
    get bytes() {
      return cache.calculatedSize;
    },
  };
}
