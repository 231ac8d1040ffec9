import { LRUCache } from "lru-cache";
import { lookupHash, refreshLastUsed } from "../auth/api-key-lookup.js";
import type { Viewer } from "../auth/viewer.js";
import type { Database } from "../db/database.js";
import type { ReadPosition } from "../db/replicas.js";
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

// $1 the key's hash, $2 the rate-limit window, $3 the versions the request's tags claim.
const ADMISSION_STATEMENT = `
  WITH api_key AS (
    SELECT k.id, k.buyer_id, k.last_used_at, coalesce(v.version, 0) AS version
    FROM api_keys AS k LEFT JOIN buyer_versions AS v ON v.buyer_id = k.buyer_id
    WHERE k.hash = $1 AND k.revoked_at IS NULL
  ), counted AS (
    INSERT INTO rate_limit_windows (subject, window_start, count)
    SELECT 'key:' || api_key.id, $2, 1 FROM api_key
    WHERE NOT (api_key.version = ANY ($3::bigint[]))
    ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
    RETURNING count
  )
  SELECT api_key.id::text AS id, api_key.buyer_id::text AS buyer_id, api_key.last_used_at,
         api_key.version::text AS version, pg_current_wal_insert_lsn()::text AS wal_position,
         counted.count AS counted,
         -- Read only for a request that was not counted (COALESCE stops at the first value).
         coalesce(counted.count, (SELECT w.count FROM rate_limit_windows AS w
           WHERE w.subject = 'key:' || api_key.id AND w.window_start = $2)) AS standing
  FROM api_key LEFT JOIN counted ON true`;

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
  id: string;
  buyer_id: string;
  last_used_at: Date | null;
  version: string;
  wal_position: string;
  /** After this request, when it was counted; null when it was not. */
  counted: number | null;
  /** The window's count with this request when counted, before it otherwise. */
  standing: number | null;
}

/**
 * Looks the API key up, reads the buyer's data version and counts the request
 * in its fixed one-minute window, in one SQL statement. Every request pays this
 * step, so it is one round trip rather than two; the count lives in PostgreSQL
 * so that every server process shares it, and a revoked key stops working at
 * once. A request that claims the current version (a conditional GET about to
 * be answered 304) is not counted.
 */
export function createAdmission(
  database: Pick<Database, "prisma" | "query">,
  limitPerMinute: number,
  onError: (error: unknown) => void,
): Gate {
  const { prisma } = database;
  const admitted = new LRUCache<string, true>({ max: REMEMBERED_KEYS, ttl: REMEMBERED_FOR_MS });
  return {
    admittedLately(key) {
      const hash = lookupHash(key);
      return hash !== null && admitted.has(hash);
    },
    async admit(key, claimedVersions = []) {
      const hash = lookupHash(key);
      if (hash === null) return null;
      const now = Date.now();
      const windowStart = rateLimitWindow(now);
      const claimed = claimedVersions.map(String);
      const [row] = await database.query<AdmissionRow>(
        ADMISSION_STATEMENT,
        [hash, windowStart, claimed],
        "admission",
      );
      if (!row) {
        admitted.delete(hash);
        return null;
      }
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
