import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import { lookupHash, refreshLastUsed } from "../auth/api-key-lookup.js";
import type { Viewer } from "../auth/viewer.js";
import type { Database } from "../db/database.js";
import type { ReadPosition } from "../db/replicas.js";
import { statementTraced } from "../db/statement-span.js";
import { type AdmissionClaim, type AdmittedKey, admitClaims, countInWindow } from "../services/admission.js";
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
   * The version of what the request reads: the highest version of the record
   * types its answer can show, the buyer's version of their last write (for a
   * request that names none, the buyer's version). ETags, 304s and the
   * response cache go by it.
   */
  readVersion: bigint;
  /**
   * The primary's WAL insert position as the statement read the version: a
   * replica that has replayed up to it has that version (src/db/replicas.ts).
   */
  walPosition: string;
  /**
   * False when the request claimed (If-None-Match) its read's current version:
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
   * The caller, its data versions and its rate-limit standing, or null without
   * a valid key. `recordTypes` are the change log's record types the read can
   * show (null: any of the buyer's). The request is counted unless
   * `claimedVersions` holds its read's current version.
   */
  admit(
    key: string | null,
    claimedVersions?: readonly bigint[],
    recordTypes?: readonly string[] | null,
  ): Promise<Admission | null>;
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

/** Requests one admission statement admits at most. */
const ADMISSIONS_PER_STATEMENT = 256;

/** A request's key (null: no such key, or revoked), and the window and time the statement counted it in. */
interface Lookup {
  key: AdmittedKey | null;
  windowStart: Date;
  now: number;
}

/** Admits `claims` with one statement; a lookup for each, in their order. */
async function lookUp(
  database: Pick<Database, "query">,
  claims: readonly AdmissionClaim[],
): Promise<Lookup[]> {
  const now = Date.now();
  const windowStart = rateLimitWindow(now);
  const keys = await admitClaims(database, claims, windowStart);
  return keys.map((key) => ({ key, windowStart, now }));
}

/**
 * Looks the API key up, reads the buyer's data versions and counts the request
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
  const together = new DataLoader<AdmissionClaim, Lookup>((claims) => lookUp(database, claims), {
    cache: false,
    maxBatchSize: ADMISSIONS_PER_STATEMENT,
    batchScheduleFn: (send) => setImmediate(send),
  });
  return {
    admittedLately(key) {
      const hash = lookupHash(key);
      return hash !== null && admitted.has(hash);
    },
    async admit(key, claimedVersions = [], recordTypes = null) {
      const hash = lookupHash(key);
      if (hash === null) return null;
      const claim = { hash, claimed: claimedVersions, recordTypes };
      // A traced request's statement is its own, so that its trace shows it (src/db/statement-span.ts).
      const lookup = statementTraced() ? (await lookUp(database, [claim]))[0] : await together.load(claim);
      if (!lookup?.key) {
        admitted.delete(hash);
        return null;
      }
      const { key: found, windowStart, now } = lookup;
      admitted.set(hash, true);
      refreshLastUsed(prisma, found.apiKeyId, found.lastUsedAt, onError);
      sweepRateLimitWindows(prisma, now, onError);
      const counted = found.counted !== null;
      const count = found.standing;
      return {
        viewer: { buyerId: found.buyerId, apiKeyId: found.apiKeyId },
        // Not counted, the request is within the limit whatever the count: it costs nothing.
        limit: counted
          ? decideRateLimit(count, limitPerMinute, windowStart, now)
          : { ...decideRateLimit(count, limitPerMinute, windowStart, now), allowed: true },
        version: found.version,
        readVersion: found.readVersion,
        walPosition: found.walPosition,
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
