// The rate limit's counts: one row of `rate_limit_windows` per subject (an
// API key, an address's failed authentications) and wall-clock minute.
import type { PrismaClient } from "../db/generated/prisma/client.js";

/** Deletes the windows that started before `before`: no request counts in them any more. */
export async function deleteRateLimitWindowsBefore(
  prisma: Pick<PrismaClient, "$executeRaw">,
  before: Date,
): Promise<void> {
  await prisma.$executeRaw`DELETE FROM rate_limit_windows WHERE window_start < ${before}`;
}
