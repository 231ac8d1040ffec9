import type { PrismaClient } from "../db/generated/prisma/client.js";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(subject: string): Promise<RateLimitDecision>;
}

const WINDOW_MS = 60_000;
/** Old windows are swept on about one request in this many. */
const SWEEP_EVERY = 500;

/**
 * A fixed one-minute window per subject, counted in PostgreSQL so that every
 * server process shares it: one upsert per request.
 */
export function createRateLimiter(prisma: PrismaClient, limitPerMinute: number): RateLimiter {
  return {
    async consume(subject) {
      const now = Date.now();
      const windowStart = new Date(now - (now % WINDOW_MS));
      const rows = await prisma.$queryRaw<{ count: number }[]>`
        INSERT INTO rate_limit_windows (subject, window_start, count) VALUES (${subject}, ${windowStart}, 1)
        ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
        RETURNING count`;
      if (Math.random() * SWEEP_EVERY < 1) {
        await prisma.$executeRaw`DELETE FROM rate_limit_windows WHERE window_start < ${new Date(now - 2 * WINDOW_MS)}`;
      }
      const count = rows[0]?.count ?? 1;
      return {
        allowed: count <= limitPerMinute,
        limit: limitPerMinute,
        remaining: Math.max(0, limitPerMinute - count),
        resetSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000)),
      };
    },
  };
}
