import { Response as ServedResponse } from "@whatwg-node/server";
import {
  type AcceptedCoding,
  type ContentCoding,
  codedHeaders,
  codingFor,
  decodeBody,
  encodeBody,
} from "./compression.js";
import {
  codedEntityTag,
  formatEntityTag,
  noneMatchHit,
  parseTagCondition,
  representationHash,
  versionOfTag,
} from "./entity-tag.js";
import type { CachedResponse, ResponseCache, WhenSent } from "./response-cache.js";

const IDENTITY_ONLY: AcceptedCoding = { preferred: "identity", identity: true };

/** Every successful GET says it may be stored by the client only, and revalidated before each use. */
export const READ_CACHE_CONTROL = "private, no-cache";

/** What the response cache and 304s did, for GET /metrics. */
export interface ConditionalGetCounters {
  notModified(): void;
  hit(): void;
  miss(): void;
}

export interface ConditionalGetOptions {
  /**
   * Changes whenever the code or configuration could write other bytes for
   * the same data (the route table, the links' base URL, the release), so a
   * tag handed out by another build never matches.
   */
  salt: string;
  cache: ResponseCache;
  counters: ConditionalGetCounters;
}

/** What a GET's bytes depend on: whose data at which version, and the request's URL. */
export interface ReadState {
  buyerId: string;
  version: bigint;
}

export interface ConditionalGets {
  /** The versions the request's If-None-Match claims, for the admission statement; empty when none. */
  claimedVersions(request: Request): bigint[];
  /** The strong ETag a GET of `url` answers with at `state`. */
  entityTag(url: URL, state: ReadState): string;
  /**
   * A 304 when If-None-Match names the current representation in any coding,
   * carrying the tag the client holds; null otherwise.
   */
  notModified(request: Request, url: URL, state: ReadState): Response | null;
  /**
   * Answers a GET from the cache when what it can show is unchanged since it
   * was stored; otherwise runs `execute` and keeps a 200 for next time.
   * `whenSent` tells when the answer has gone out, so that the bytes it shares
   * with the cache can be freed once both are done with them. The answer is
   * in the coding `accepted` gets for its size (`codingFor`), coded once per
   * entry and coding: never in one the request did not accept.
   */
  serve(
    url: URL,
    state: ReadState,
    execute: () => Promise<Response>,
    whenSent?: WhenSent,
    accepted?: AcceptedCoding,
  ): Promise<Response>;
}

/**
 * Conditional and cached reads (docs/design/decisions.md §9), for any GET route. A
 * tag is "<version>-<hash>": the version of the records the read can show,
 * which every write of them moves on in the writing transaction, and a
 * hash of the rest of what shapes the bytes (buyer, path, query as sent — the
 * Link header repeats it — and the origin links are written with). The
 * version comes from this request's own admission statement, so neither a
 * 304 nor a cached answer can be older than the data at that moment.
 */
export function createConditionalGets({ salt, cache, counters }: ConditionalGetOptions): ConditionalGets {
  const hashOf = (url: URL, buyerId: string) =>
    representationHash([salt, buyerId, url.origin, url.pathname, url.search]);
  const entityTag = (url: URL, state: ReadState) =>
    formatEntityTag(state.version, hashOf(url, state.buyerId));
  const withReadHeaders = (response: Response, etag: string) => {
    response.headers.set("etag", etag);
    response.headers.set("cache-control", READ_CACHE_CONTROL);
    return response;
  };
  /** The stored answer as sent: its tag names its coding. */
  const replayed = (cached: CachedResponse, etag: string) =>
    withReadHeaders(replay(cached), codedEntityTag(etag, cached.coding));
  /** The entry's page in another coding, made from the one it holds and kept beside it when it fits. */
  const recode = async (
    key: string,
    cached: CachedResponse,
    coding: ContentCoding,
    whenSent: WhenSent | undefined,
  ): Promise<CachedResponse> => {
    // A copy of its own: the stored bytes may be freed while the coder still reads them.
    const source = cached.body.slice();
    const plain = cached.coding === "identity" ? source : await decodeBody(source, cached.coding);
    const body = coding === "identity" ? plain : await encodeBody(plain, coding);
    return cache.add(key, coding, body, whenSent) ?? { ...cached, coding, body };
  };

  return {
    claimedVersions(request) {
      const condition = parseTagCondition(request.headers.get("if-none-match"));
      if (!condition || condition.any) return [];
      return condition.tags.flatMap((tag) => {
        const version = versionOfTag(tag);
        return version === null ? [] : [version];
      });
    },
    entityTag,
    notModified(request, url, state) {
      const condition = parseTagCondition(request.headers.get("if-none-match"));
      if (!condition) return null;
      const held = noneMatchHit(condition, entityTag(url, state));
      if (held === null) return null;
      counters.notModified();
      return withReadHeaders(new Response(null, { status: 304 }), held);
    },
    async serve(url, state, execute, whenSent, accepted = IDENTITY_ONLY) {
      const etag = entityTag(url, state);
      const key = `${state.buyerId} ${state.version} ${url.origin}${url.pathname}${url.search}`;
      const cached = cache.get(key, accepted.preferred, whenSent);
      if (cached) {
        counters.hit();
        const coding = codingFor(accepted, cached.plainBytes);
        return replayed(
          cached.coding === coding ? cached : await recode(key, cached, coding, whenSent),
          etag,
        );
      }
      counters.miss();
      const response = await execute();
      if (response.status !== 200) return response;
      // Nothing to keep (RESPONSE_CACHE_MAX_BYTES=0): the answer goes out as it is, coded on its way out.
      if (!cache.enabled) return withReadHeaders(response, etag);
      // The cache gets the bytes and this answer sends them, encoded once; a page too big to keep
      // goes out as the text it was (jsonResponse's, whose text() costs nothing) or its coded bytes.
      const { status } = response;
      const text = await response.text();
      const headers = [...response.headers];
      const plainBytes = Buffer.byteLength(text);
      const coding = codingFor(accepted, plainBytes);
      if (coding === "identity") {
        const stored = cache.set(key, { status, text, headers }, whenSent);
        // Not kept, the header list is this answer's alone.
        return stored
          ? replayed(stored, etag)
          : withReadHeaders(new ServedResponse(text, { status, headers }), etag);
      }
      const body = await encodeBody(text, coding);
      const stored = cache.set(key, { status, headers, coding, body, plainBytes }, whenSent);
      return replayed(stored ?? { status, headers, coding, body, plainBytes }, etag);
    },
  };
}

/**
 * @whatwg-node's own Response, as jsonResponse's: it sends the stored bytes as
 * they are, in one write, where Node's Response copies them and streams the
 * copy. Its header list is its own (codedHeaders makes a new one):
 * @whatwg-node's Headers writes into the list it was built from, and this
 * answer's ETag, rate limit and CORS headers must not end up in the cache for
 * the next one.
 */
function replay(cached: CachedResponse): Response {
  return new ServedResponse(cached.body, {
    status: cached.status,
    headers: codedHeaders(cached.headers, cached.coding),
  });
}
