import type { PrismaClient } from "../db/generated/prisma/client.js";
import { deleteRateLimitWindowsBefore } from "../services/rate-limit-windows.js";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;
/** Old windows are swept on about one request in this many. */
const SWEEP_EVERY = 500;

/** The fixed wall-clock minute a request made at `now` counts in. */
export function rateLimitWindow(now: number): Date {
  return new Date(now - (now % WINDOW_MS));
}

/** What a request that brought its window's count to `count` may do. */
export function decideRateLimit(
  count: number,
  limitPerMinute: number,
  windowStart: Date,
  now: number,
): RateLimitDecision {
  return {
    allowed: count <= limitPerMinute,
    limit: limitPerMinute,
    remaining: Math.max(0, limitPerMinute - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000)),
  };
}

/** Deletes windows nobody reads any more, on a random one request in `SWEEP_EVERY`, beside the request. */
export function sweepRateLimitWindows(
  prisma: PrismaClient,
  now: number,
  onError: (error: unknown) => void,
): void {
  if (Math.random() * SWEEP_EVERY >= 1) return;
  deleteRateLimitWindowsBefore(prisma, new Date(now - 2 * WINDOW_MS)).catch(onError);
}
