import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import { lookupHash, refreshLastUsed } from "../auth/api-key-lookup.js";
import type { Viewer } from "../auth/viewer.js";
import type { Database } from "../db/database.js";
import type { ReadPosition } from "../db/replicas.js";
import { statementTraced } from "../db/statement-span.js";
import {
  decideRateLimit,
  type RateLimitDecision,
  rateLimitWindow,
  sweepRateLimitWindows,
} from "./rate-limiter.js";

export interface Admission {
  viewer: Viewer;
  limit: RateLimitDecision;
  /** The buyer's data version as of this request (0 before its first write). */
  version: bigint;
  /**
   * The primary's WAL insert position as the statement read the version: a
   * replica that has replayed up to it has that version (src/db/replicas.ts).
   */
  walPosition: string;
  /**
   * False when the request claimed (If-None-Match) the buyer's current version:
   * it was not counted, and `limit` shows the standing without it. A request
   * that then gets no 304 is counted with `Gate.count`.
   */
  counted: boolean;
}

/** Where a request's reads may run (src/db/replicas.ts): its buyer, version and WAL position; null without a key. */
export function readPositionOf(admission: Admission | null | undefined): ReadPosition | null {
  if (!admission) return null;
  return {
    buyerId: admission.viewer.buyerId,
    version: admission.version,
    walPosition: admission.walPosition,
  };
}

export interface Gate {
  /**
   * The caller, its data version and its rate-limit standing, or null without
   * a valid key. The request is counted unless `claimedVersions` holds the
   * buyer's current version.
   */
  admit(key: string | null, claimedVersions?: readonly bigint[]): Promise<Admission | null>;
  /** Counts an admitted request that was not counted after all. */
  count(admission: Admission): Promise<Admission>;
  /**
   * Whether this process admitted `key` lately. An address over its failed-
   * authentication limit may still send a key it has used (colleagues behind
   * one NAT); a guess is never one.
   */
  admittedLately(key: string | null): boolean;
}

/** Addresses over their failed-authentication limit a process remembers refusing. */
const REFUSED_ADDRESSES = 10_000;

/** Keys a process remembers having admitted, and for how long. */
const REMEMBERED_KEYS = 10_000;
const REMEMBERED_FOR_MS = 15 * 60_000;

// One statement admits the requests that arrive together: $1 their keys'
// hashes, $2 the rate-limit window, $3 for each request the versions its tags
// claim (comma-separated). A key's requests are counted by one row update,
// numbered in arrival order; keys' rows are locked in one order, so that two
// statements never deadlock.
const ADMISSION_STATEMENT = `
  WITH request AS (
    SELECT r.position, r.hash, string_to_array(r.claimed, ',')::bigint[] AS claimed
    FROM unnest($1::text[], $3::text[]) WITH ORDINALITY AS r(hash, claimed, position)
  ), api_key AS (
    SELECT request.position, k.id, k.buyer_id, k.last_used_at, coalesce(v.version, 0) AS version,
           NOT (coalesce(v.version, 0) = ANY (request.claimed)) AS counts
    FROM request
    JOIN api_keys AS k ON k.hash = request.hash AND k.revoked_at IS NULL
    LEFT JOIN buyer_versions AS v ON v.buyer_id = k.buyer_id
  ), counted AS (
    INSERT INTO rate_limit_windows (subject, window_start, count)
    SELECT 'key:' || api_key.id, $2, count(*) FROM api_key WHERE api_key.counts GROUP BY api_key.id ORDER BY 1
    ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
    RETURNING subject, count
  ), admitted AS (
    SELECT a.*, c.count AS after_all,
           -- A counted request's count: the key's count after the statement, less the key's requests counted after it.
           CASE WHEN a.counts THEN c.count - coalesce(sum(a.counts::int) OVER (PARTITION BY a.id ORDER BY a.position DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) END AS counted
    FROM api_key AS a LEFT JOIN counted AS c ON c.subject = 'key:' || a.id
  )
  SELECT position::int AS position, id::text AS id, buyer_id::text AS buyer_id, last_used_at,
         version::text AS version, pg_current_wal_insert_lsn()::text AS wal_position,
         counted::int AS counted,
         -- Read only for a key none of whose requests was counted (COALESCE stops at the first value).
         coalesce(counted, after_all, (SELECT w.count FROM rate_limit_windows AS w
           WHERE w.subject = 'key:' || admitted.id AND w.window_start = $2))::int AS standing
  FROM admitted`;

/** Requests one admission statement admits at most. */
const ADMISSIONS_PER_STATEMENT = 256;

// One more request of `subject` ($1) in the window starting at $2; the window's count after it.
const COUNT_IN_WINDOW = `
  INSERT INTO rate_limit_windows (subject, window_start, count) VALUES ($1, $2, 1)
  ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
  RETURNING count`;

async function countInWindow(
  database: Pick<Database, "query">,
  subject: string,
  windowStart: Date,
): Promise<number> {
  const [row] = await database.query<{ count: number }>(
    COUNT_IN_WINDOW,
    [subject, windowStart],
    "count_in_window",
  );
  return row?.count ?? 1;
}

interface AdmissionRow {
  /** The request's place in the statement's list, from 1. */
  position: number;
  id: string;
  buyer_id: string;
  last_used_at: Date | null;
  version: string;
  wal_position: string;
  /** After this request, when it was counted; null when it was not. */
  counted: number | null;
  /** The window's count with this request when counted, without it otherwise. */
  standing: number | null;
}

/** A request to admit: its key's hash and the versions its tags claim. */
interface Claim {
  hash: string;
  claimed: readonly bigint[];
}

/** A request's row (null: no such key, or revoked), and the window and time the statement counted it in. */
interface Lookup {
  row: AdmissionRow | null;
  windowStart: Date;
  now: number;
}

/** Admits `claims` with one statement; a lookup for each, in their order. */
async function lookUp(database: Pick<Database, "query">, claims: readonly Claim[]): Promise<Lookup[]> {
  const now = Date.now();
  const windowStart = rateLimitWindow(now);
  const rows = await database.query<AdmissionRow>(
    ADMISSION_STATEMENT,
    [claims.map((claim) => claim.hash), windowStart, claims.map((claim) => claim.claimed.join(","))],
    "admission",
  );
  const byPosition = new Map(rows.map((row) => [row.position, row]));
  return claims.map((_, index) => ({ row: byPosition.get(index + 1) ?? null, windowStart, now }));
}

/**
 * Looks the API key up, reads the buyer's data version and counts the request
 * in its fixed one-minute window, in one SQL statement. Every request pays this
 * step, so it is one round trip rather than two, and requests that arrive
 * together (in one turn of the event loop) share it; the count lives in
 * PostgreSQL so that every server process shares it, and a revoked key stops
 * working at once. A request that claims the current version (a conditional
 * GET about to be answered 304) is not counted.
 */
export function createAdmission(
  database: Pick<Database, "prisma" | "query">,
  limitPerMinute: number,
  onError: (error: unknown) => void,
): Gate {
  const { prisma } = database;
  const admitted = new LRUCache<string, true>({ max: REMEMBERED_KEYS, ttl: REMEMBERED_FOR_MS });
  // The requests that reach admission before the event loop next checks for I/O go in one statement.
  const together = new DataLoader<Claim, Lookup>((claims) => lookUp(database, claims), {
    cache: false,
    maxBatchSize: ADMISSIONS_PER_STATEMENT,
    batchScheduleFn: (send) => setImmediate(send),
  });
  return {
    admittedLately(key) {
      const hash = lookupHash(key);
      return hash !== null && admitted.has(hash);
    },
    async admit(key, claimedVersions = []) {
      const hash = lookupHash(key);
      if (hash === null) return null;
      const claim = { hash, claimed: claimedVersions };
      // A traced request's statement is its own, so that its trace shows it (src/db/statement-span.ts).
      const lookup = statementTraced() ? (await lookUp(database, [claim]))[0] : await together.load(claim);
      if (!lookup?.row) {
        admitted.delete(hash);
        return null;
      }
      const { row, windowStart, now } = lookup;
      admitted.set(hash, true);
      refreshLastUsed(prisma, row.id, row.last_used_at, onError);
      sweepRateLimitWindows(prisma, now, onError);
      const counted = row.counted !== null;
      const count = row.standing ?? 0;
      return {
        viewer: { buyerId: row.buyer_id, apiKeyId: row.id },
        // Not counted, the request is within the limit whatever the count: it costs nothing.
        limit: counted
          ? decideRateLimit(count, limitPerMinute, windowStart, now)
          : { ...decideRateLimit(count, limitPerMinute, windowStart, now), allowed: true },
        version: BigInt(row.version),
        walPosition: row.wal_position,
        counted,
      };
    },
    async count(admission) {
      if (admission.counted) return admission;
      const now = Date.now();
      const windowStart = rateLimitWindow(now);
      const count = await countInWindow(database, `key:${admission.viewer.apiKeyId}`, windowStart);
      return {
        ...admission,
        limit: decideRateLimit(count, limitPerMinute, windowStart, now),
        counted: true,
      };
    },
  };
}

export interface AuthFailureLimit {
  /** The standing of an address already over its limit, known to this process; null otherwise. */
  refusal(address: string, now?: number): RateLimitDecision | null;
  /** Counts one failed authentication from `address` across all processes; its standing after it. */
  record(address: string, now?: number): Promise<RateLimitDecision>;
}

/**
 * Failed authentications (answers 401) per client address, in a fixed
 * one-minute window shared by every process (`rate_limit_windows`). Once an
 * address passes the limit this process refuses its requests until the window
 * ends without looking keys up or reading bodies.
 */
export function createAuthFailureLimit(
  database: Pick<Database, "prisma" | "query">,
  limitPerMinute: number,
  onError: (error: unknown) => void,
): AuthFailureLimit {
  // Past the bound the least recently refused go first; such an address is refused again after one more lookup.
  const refusedUntil = new LRUCache<string, number>({ max: REFUSED_ADDRESSES });
  return {
    refusal(address, now = Date.now()) {
      const until = refusedUntil.get(address);
      if (until === undefined) return null;
      if (until <= now) {
        refusedUntil.delete(address);
        return null;
      }
      return decideRateLimit(limitPerMinute + 1, limitPerMinute, rateLimitWindow(now), now);
    },
    async record(address, now = Date.now()) {
      const windowStart = rateLimitWindow(now);
      const count = await countInWindow(database, `auth-failure:${address}`, windowStart);
      sweepRateLimitWindows(database.prisma, now, onError);
      const decision = decideRateLimit(count, limitPerMinute, windowStart, now);
      if (!decision.allowed) {
        // Expired entries go on the next refusal() for their address.
        refusedUntil.set(address, windowStart.getTime() + 60_000);
      }
      return decision;
    },
  };
}
