import { LRUCache } from "lru-cache";

/** A response as it can be replayed: the bytes and the headers of the representation. */
export interface CachedResponse {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  headers: [name: string, value: string][];
}

export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  set(key: string, response: CachedResponse): void;
  /** Bytes held now, as counted against the bound. */
  readonly bytes: number;
  /** False when the bound is 0: nothing is ever kept. */
  readonly enabled: boolean;
}

/** Per entry beyond body and header text: the key, the map and LRU bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 256;

function sizeOf(key: string, response: CachedResponse): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + response.body.byteLength;
  for (const [name, value] of response.headers) size += (name.length + value.length) * 2;
  return size;
}

/**
 * A least-recently-used store of response bytes bounded by their total size.
 * Keys carry the buyer's data version, so an entry is never served after the
 * buyer's data changed: it is simply never asked for again and ages out.
 */
export function createResponseCache(maxBytes: number): ResponseCache {
  if (maxBytes === 0) {
    return { get: () => undefined, set: () => {}, bytes: 0, enabled: false };
  }
  const cache = new LRUCache<string, CachedResponse>({
    maxSize: maxBytes,
    // A response bigger than an eighth of the cache would evict too much to be worth keeping.
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
    sizeCalculation: (response, key) => sizeOf(key, response),
  });
  return {
    get: (key) => cache.get(key),
    set: (key, response) => {
      cache.set(key, response);
    },
    get bytes() {
      return cache.calculatedSize;
    },
    enabled: true,
  };
}
