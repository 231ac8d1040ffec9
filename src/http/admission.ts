import { lookupHash, refreshLastUsed } from "../auth/api-key-lookup.js";
import type { Viewer } from "../auth/viewer.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import {
  decideRateLimit,
  type RateLimitDecision,
  rateLimitWindow,
  sweepRateLimitWindows,
} from "./rate-limiter.js";

export interface Admission {
  viewer: Viewer;
  limit: RateLimitDecision;
}

export interface Gate {
  /** The caller and its rate-limit standing with this request counted, or null without a valid key. */
  admit(key: string | null): Promise<Admission | null>;
}

interface AdmissionRow {
  id: string;
  buyer_id: string;
  last_used_at: Date | null;
  count: number;
}

/**
 * Looks the API key up and counts the request in its fixed one-minute window
 * in one SQL statement. Every request pays this step, so it is one round trip
 * rather than two; the count lives in PostgreSQL so that every server process
 * shares it, and a revoked key stops working at once.
 */
export function createAdmission(
  prisma: PrismaClient,
  limitPerMinute: number,
  onError: (error: unknown) => void,
): Gate {
  return {
    async admit(key) {
      const hash = lookupHash(key);
      if (hash === null) return null;
      const now = Date.now();
      const windowStart = rateLimitWindow(now);
      const [row] = await prisma.$queryRaw<AdmissionRow[]>`
        WITH api_key AS (
          SELECT id, buyer_id, last_used_at FROM api_keys WHERE hash = ${hash} AND revoked_at IS NULL
        ), counted AS (
          INSERT INTO rate_limit_windows (subject, window_start, count)
          SELECT 'key:' || api_key.id, ${windowStart}, 1 FROM api_key
          ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
          RETURNING count
        )
        SELECT api_key.id::text AS id, api_key.buyer_id::text AS buyer_id, api_key.last_used_at, counted.count
        FROM api_key CROSS JOIN counted`;
      if (!row) return null;
      refreshLastUsed(prisma, row.id, row.last_used_at, onError);
      sweepRateLimitWindows(prisma, now, onError);
      return {
        viewer: { buyerId: row.buyer_id, apiKeyId: row.id },
        limit: decideRateLimit(row.count, limitPerMinute, windowStart, now),
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
  prisma: PrismaClient,
  limitPerMinute: number,
  onError: (error: unknown) => void,
): AuthFailureLimit {
  const refusedUntil = new Map<string, number>();
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
      const [row] = await prisma.$queryRaw<{ count: number }[]>`
        INSERT INTO rate_limit_windows (subject, window_start, count)
        VALUES (${`auth-failure:${address}`}, ${windowStart}, 1)
        ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
        RETURNING count`;
      sweepRateLimitWindows(prisma, now, onError);
      const decision = decideRateLimit(row?.count ?? 1, limitPerMinute, windowStart, now);
      if (!decision.allowed) {
        // Expired entries go on the next refusal() for their address; bound the map against address churn.
        if (refusedUntil.size > 10_000) refusedUntil.clear();
        refusedUntil.set(address, windowStart.getTime() + 60_000);
      }
      return decision;
    },
  };
}
