import { LRUCache } from "lru-cache";
import type { ContentCoding } from "./compression.js";

/** A response as it can be replayed: the bytes in one coding and the headers of the representation. */
export interface CachedResponse {
  status: number;
  /** The body in `coding`. */
  body: Uint8Array<ArrayBuffer>;
  coding: ContentCoding;
  /** Without Content-Encoding: the same for every coding. */
  headers: [name: string, value: string][];
  /** The size of the body as it is, which decides the codings it may go out in. */
  plainBytes: number;
}

/** A response offered to the cache: its body still text, or bytes already in a coding. */
export type ResponseToKeep = {
  status: number;
  headers: [name: string, value: string][];
} & (
  | { text: string }
  | { coding: Exclude<ContentCoding, "identity">; body: Uint8Array<ArrayBuffer>; plainBytes: number }
);

/**
 * Calls `done` once the bytes of the response being answered have been
 * handed to the operating system or dropped with the connection.
 */
export type WhenSent = (done: () => void) => void;

export interface ResponseCache {
  /**
   * The stored response in `coding`, or, when the entry holds the page in
   * other codings only, in one of those (identity first), for the caller to
   * recode and `add`. Its bytes are shared, not copied. With `whenSent`, the
   * bytes are given back when the entry has left the cache and every answer
   * sending them is done; without it (no way to tell when the answer is
   * done), they are left to the garbage collector.
   */
  get(key: string, coding: ContentCoding, whenSent?: WhenSent): CachedResponse | undefined;
  /**
   * Keeps `response` as bytes and returns them, to be sent under the same
   * rule as `get`'s; undefined when it is too big to keep, and then the
   * cache holds no bytes of it: the caller sends what it offered.
   */
  set(key: string, response: ResponseToKeep, whenSent?: WhenSent): CachedResponse | undefined;
  /**
   * Keeps the entry's page in one more coding, beside the ones it holds, and
   * returns it as `set` does; undefined when the entry has gone or would grow
   * too big, and then the caller sends its own bytes.
   */
  add(
    key: string,
    coding: ContentCoding,
    body: Uint8Array<ArrayBuffer>,
    whenSent?: WhenSent,
  ): CachedResponse | undefined;
  /** Bytes held now, as counted against the bound. */
  readonly bytes: number;
  /** False when the bound is 0: nothing is ever kept. */
  readonly enabled: boolean;
}

/** Per entry beyond body and header text: the key, the map and LRU bookkeeping, roughly. */
const ENTRY_OVERHEAD_BYTES = 256;

const utf8 = new TextEncoder();

interface Entry {
  status: number;
  headers: [name: string, value: string][];
  plainBytes: number;
  /** The page in each coding asked for so far: only those, so a page asked for in brotli costs its brotli bytes. */
  bodies: Map<ContentCoding, Uint8Array<ArrayBuffer>>;
  /** Counted against the bound: every coding's bytes, the headers, the key. */
  size: number;
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
 * Frees the entry's bytes now (detaching their buffers) rather than at V8's
 * next full collection, which lets dead buffers pile up beyond the bound
 * first: the cache must cost its bound and no more.
 */
function giveBack(entry: Entry): void {
  if (!entry.evicted || entry.sending > 0 || entry.pinned) return;
  for (const body of entry.bodies.values()) body.buffer.transfer(0);
}

/** Counts one more answer sending the entry's bytes, until `whenSent` says it is done. */
function lend(
  entry: Entry,
  coding: ContentCoding,
  whenSent: WhenSent | undefined,
): CachedResponse | undefined {
  const body = entry.bodies.get(coding);
  if (!body) return undefined;
  if (whenSent) {
    entry.sending += 1;
    whenSent(() => {
      entry.sending -= 1;
      giveBack(entry);
    });
  } else {
    entry.pinned = true;
  }
  return { status: entry.status, headers: entry.headers, plainBytes: entry.plainBytes, body, coding };
}

/** The coding asked for when the entry holds it; else identity, else any it holds. */
function nearest(entry: Entry, coding: ContentCoding): ContentCoding {
  if (entry.bodies.has(coding)) return coding;
  if (entry.bodies.has("identity")) return "identity";
  return entry.bodies.keys().next().value ?? coding;
}

/**
 * A least-recently-used store of response bytes bounded by their total size.
 * Keys carry the version of what the read can show, so an entry is never served
 * after that data changed: it is simply never asked for again and ages out.
 */
export function createResponseCache(maxBytes: number): ResponseCache {
  if (maxBytes === 0) {
    return { get: () => undefined, set: () => undefined, add: () => undefined, bytes: 0, enabled: false };
  }
  // A response bigger than an eighth of the cache would evict too much to be worth keeping.
  const maxEntryBytes = Math.max(1, Math.floor(maxBytes / 8));
  /** The entry being stored again under a new size, which its old slot's dispose must leave alone. */
  let resizing: Entry | null = null;
  // Slots wrap entries because the LRU takes a new size only with a new value.
  const cache = new LRUCache<string, { entry: Entry }>({
    maxSize: maxBytes,
    maxEntrySize: maxEntryBytes,
    dispose: ({ entry }) => {
      if (entry === resizing) return;
      entry.evicted = true;
      giveBack(entry);
    },
  });
  return {
    get: (key, coding, whenSent) => {
      const entry = cache.get(key)?.entry;
      return entry ? lend(entry, nearest(entry, coding), whenSent) : undefined;
    },
    set: (key, response, whenSent) => {
      const { status, headers } = response;
      let coding: ContentCoding;
      let body: Uint8Array<ArrayBuffer>;
      let plainBytes: number;
      if ("text" in response) {
        // UTF-8 takes at least a byte per UTF-16 unit, so a text too long to keep is refused unencoded;
        // one that only its encoding shows too big is given back at once.
        if (sizeOf(key, response.text.length, headers) > maxEntryBytes) return undefined;
        coding = "identity";
        body = utf8.encode(response.text);
        plainBytes = body.byteLength;
      } else {
        coding = response.coding;
        body = response.body;
        plainBytes = response.plainBytes;
      }
      const size = sizeOf(key, body.byteLength, headers);
      if (size > maxEntryBytes) {
        if (coding === "identity") body.buffer.transfer(0);
        return undefined;
      }
      const entry: Entry = {
        status,
        headers,
        plainBytes,
        bodies: new Map([[coding, body]]),
        size,
        sending: 0,
        pinned: false,
        evicted: false,
      };
      cache.set(key, { entry }, { size });
      return lend(entry, coding, whenSent);
    },
    add: (key, coding, body, whenSent) => {
      const entry = cache.get(key)?.entry;
      if (!entry) return undefined;
      // Two answers recoded the page at once: the first one's bytes stay.
      if (entry.bodies.has(coding)) return lend(entry, coding, whenSent);
      const size = entry.size + body.byteLength;
      // Growing past the entry bound would make the LRU drop the entry, codings and all.
      if (size > maxEntryBytes) return undefined;
      entry.bodies.set(coding, body);
      entry.size = size;
      resizing = entry;
      try {
        cache.set(key, { entry }, { size });
      } finally {
        resizing = null;
      }
      return lend(entry, coding, whenSent);
    },
    get bytes() {
      return cache.calculatedSize;
    },
    enabled: true,
  };
}
