import { LRUCache } from "lru-cache";

/** A response as it can be replayed: the bytes and the headers of the representation. */
export interface CachedResponse {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  headers: [name: string, value: string][];
}

/** A response offered to the cache, its body still text. */
export interface ResponseToKeep {
  status: number;
  text: string;
  headers: [name: string, value: string][];
}

/**
 * Calls `done` once the bytes of the response being answered have been
 * handed to the operating system or dropped with the connection.
 */
export type WhenSent = (done: () => void) => void;

export interface ResponseCache {
  /**
   * The stored response, its bytes shared, not copied. With `whenSent`, the
   * bytes are given back when the entry has left the cache and every answer
   * sending them is done; without it (no way to tell when the answer is
   * done), they are left to the garbage collector.
   */
  get(key: string, whenSent?: WhenSent): CachedResponse | undefined;
  /**
   * Keeps `response` as bytes and returns them, to be sent under the same
   * rule as `get`'s; undefined when it is too big to keep, and then the
   * cache holds no bytes of it: the caller sends its text.
   */
  set(key: string, response: ResponseToKeep, whenSent?: WhenSent): CachedResponse | undefined;
  /** Bytes held now, as counted against the bound. */
  readonly bytes: number;
  /** False when the bound is 0: nothing is ever kept. */
  readonly enabled: boolean;
}

/** Per entry beyond body and header text: the key, the map and LRU bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 256;

const utf8 = new TextEncoder();

interface Entry {
  response: CachedResponse;
  /** Answers still sending the bytes. */
  sending: number;
  /** Handed to a caller that cannot tell when it is done: never given back by hand. */
  pinned: boolean;
  evicted: boolean;
}

function sizeOf(key: string, bodyBytes: number, headers: ResponseToKeep["headers"]): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + bodyBytes;
  for (const [name, value] of headers) size += (name.length + value.length) * 2;
  return size;
}

/**
 * Frees the entry's bytes now (detaching their buffer) rather than at V8's
 * next full collection, which lets dead buffers pile up to tens of megabytes
 * beyond the bound first (docs/performance.md, "Third pass: the cache's memory").
 */
function giveBack(entry: Entry): void {
  if (entry.evicted && entry.sending === 0 && !entry.pinned) entry.response.body.buffer.transfer(0);
}

/** Counts one more answer sending the entry's bytes, until `whenSent` says it is done. */
function lend(entry: Entry, whenSent: WhenSent | undefined): CachedResponse {
  if (whenSent) {
    entry.sending += 1;
    whenSent(() => {
      entry.sending -= 1;
      giveBack(entry);
    });
  } else {
    entry.pinned = true;
  }
  return entry.response;
}

/**
 * A least-recently-used store of response bytes bounded by their total size.
 * Keys carry the buyer's data version, so an entry is never served after the
 * buyer's data changed: it is simply never asked for again and ages out.
 */
export function createResponseCache(maxBytes: number): ResponseCache {
  if (maxBytes === 0) {
    return { get: () => undefined, set: () => undefined, bytes: 0, enabled: false };
  }
  // A response bigger than an eighth of the cache would evict too much to be worth keeping.
  const maxEntryBytes = Math.max(1, Math.floor(maxBytes / 8));
  const cache = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    maxEntrySize: maxEntryBytes,
    dispose: (entry) => {
      entry.evicted = true;
      giveBack(entry);
    },
  });
  return {
    get: (key, whenSent) => {
      const entry = cache.get(key);
      return entry ? lend(entry, whenSent) : undefined;
    },
    set: (key, { status, text, headers }, whenSent) => {
      // UTF-8 takes at least a byte per UTF-16 unit, so a text too long to keep is refused unencoded;
      // one that only its encoding shows too big is given back at once.
      if (sizeOf(key, text.length, headers) > maxEntryBytes) return undefined;
      const body = utf8.encode(text);
      const size = sizeOf(key, body.byteLength, headers);
      if (size > maxEntryBytes) {
        body.buffer.transfer(0);
        return undefined;
      }
      const entry: Entry = { response: { status, body, headers }, sending: 0, pinned: false, evicted: false };
      cache.set(key, entry, { size });
      return lend(entry, whenSent);
    },
    get bytes() {
      return cache.calculatedSize;
    },
    enabled: true,
  };
}
