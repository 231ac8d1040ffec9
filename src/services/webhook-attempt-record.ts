// Writing one attempt's outcome and what follows from it for its delivery
// and its endpoint, only while the attempt's claim still holds the delivery.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { retryDelayMs } from "../domain/webhook-retries.js";
import type { ClaimedDelivery } from "./webhook-claim.js";
import type { QueueSettings } from "./webhook-queue.js";

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /** Why it failed, when it did; never holds a secret. */
  error: string | null;
  durationMs: number;
}

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300 && !outcome.error;

/**
 * What became of an attempt's outcome: written; not written because the
 * claim's lease ran out and the delivery was claimed again; not written
 * because the delivery is gone (its endpoint or event was deleted).
 */
export type AttemptRecord = "written" | "lease lost" | "delivery gone";

/**
 * Writes an attempt and what follows from it, in one transaction: success
 * (the endpoint is no longer failing), a retry at the next step of the
 * schedule, or giving up (the endpoint is failing, and disabled once it has
 * been failing for `disableFailingAfterMs`). Nothing is written when the
 * claim no longer holds the delivery.
 */
export async function recordAttempt(
  prisma: PrismaClient,
  claim: ClaimedDelivery,
  outcome: AttemptOutcome,
  settings: QueueSettings,
  random: () => number = Math.random,
): Promise<AttemptRecord> {
  const attempt = claim.attempts + 1;
  const succeeded = isSuccess(outcome);
  const delay = succeeded
    ? null
    : retryDelayMs(settings.retryScheduleMs, attempt, settings.retryJitter, random);
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const nextRetryAt = delay === null ? null : new Date(now.getTime() + delay);
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: claim.id, claimToken: claim.claimToken, status: "delivering" },
      data: {
        status: succeeded ? "succeeded" : nextRetryAt ? "pending" : "failed",
        attempts: attempt,
        claimToken: null,
        availableAt: nextRetryAt ?? now,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(succeeded ? { succeededAt: now } : {}),
      },
    });
    if (updated.count === 0) {
      const exists = await tx.webhookDelivery.count({ where: { id: claim.id } });
      return exists ? "lease lost" : "delivery gone";
    }
    await tx.webhookDeliveryAttempt.create({
      data: {
        id: randomUUID(),
        deliveryId: claim.id,
        attempt,
        statusCode: outcome.statusCode,
        durationMs: Math.round(outcome.durationMs),
        error: outcome.error,
        nextRetryAt,
        createdAt: now,
      },
    });
    if (succeeded) {
      await tx.webhookEndpoint.updateMany({
        where: { id: claim.endpointId, status: "failing" },
        data: { status: "enabled", failingSince: null },
      });
    } else if (!nextRetryAt) {
      await tx.webhookEndpoint.updateMany({
        where: { id: claim.endpointId, status: "enabled" },
        data: { status: "failing", failingSince: now },
      });
    }
    if (!succeeded) {
      await tx.webhookEndpoint.updateMany({
        where: {
          id: claim.endpointId,
          status: "failing",
          failingSince: { lte: new Date(now.getTime() - settings.disableFailingAfterMs) },
        },
        data: { status: "disabled", disabledAt: now, disabledReason: "failing" },
      });
    }
    return "written";
  });
}
