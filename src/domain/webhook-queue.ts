// The webhook delivery queue: rows of `webhook_deliveries` in PostgreSQL (or
// PGlite), shared by every server process. A process claims due rows with
// FOR UPDATE SKIP LOCKED, so each delivery is attempted by one process at a
// time; a claim is a lease (`available_at` moves to its end), so a process
// that dies mid-delivery only delays it: once the lease runs out another
// process claims it again. Nothing is lost, and an attempt's result is
// written only by the claim that made it.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { retryDelayMs } from "./webhook-retries.js";

/** NOTIFY'd when deliveries are queued, so idle workers start at once instead of at their next poll. */
export const WEBHOOK_WORK_CHANNEL = "webhook_work";

export interface QueueSettings {
  retryScheduleMs: readonly number[];
  retryJitter: number;
  leaseMs: number;
  disableFailingAfterMs: number;
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  /** Attempts made before this one. */
  attempts: number;
  claimToken: string;
}

type Transaction = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Queues `eventId` to each endpoint, inside the caller's transaction; workers hear of it on commit. */
export async function queueDeliveries(
  tx: Transaction,
  delivery: { buyerId: string; eventId: string; endpointIds: readonly string[] },
): Promise<string[]> {
  return queueEventDeliveries(tx, [delivery]);
}

/** `queueDeliveries` for several events at once: one insert, one notification. */
export async function queueEventDeliveries(
  tx: Transaction,
  deliveries: readonly { buyerId: string; eventId: string; endpointIds: readonly string[] }[],
): Promise<string[]> {
  const rows = deliveries.flatMap((delivery) =>
    delivery.endpointIds.map((endpointId) => ({
      id: randomUUID(),
      buyerId: delivery.buyerId,
      endpointId,
      eventId: delivery.eventId,
    })),
  );
  if (rows.length === 0) return [];
  await tx.webhookDelivery.createMany({ data: rows });
  await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_WORK_CHANNEL}, '')`;
  return rows.map((row) => row.id);
}

/** Claims up to `limit` due deliveries (or ones whose lease ran out) for `leaseMs`. */
export async function claimDeliveries(
  prisma: PrismaClient,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const claimToken = randomUUID();
  const rows = await prisma.$queryRaw<
    { id: string; endpoint_id: string; event_id: string; attempts: number }[]
  >`
    UPDATE webhook_deliveries
    SET status = 'delivering', claim_token = ${claimToken}::uuid,
        available_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status IN ('pending', 'delivering') AND available_at <= now()
      ORDER BY available_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, endpoint_id, event_id, attempts`;
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    attempts: row.attempts,
    claimToken,
  }));
}

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
 * Writes an attempt and what follows from it, in one transaction: success
 * (the endpoint is no longer failing), a retry at the next step of the
 * schedule, or giving up (the endpoint is failing, and disabled once it has
 * been failing for `disableFailingAfterMs`). Returns false when the claim had
 * expired and another process had taken the delivery: nothing is written.
 */
export async function recordAttempt(
  prisma: PrismaClient,
  claim: ClaimedDelivery,
  outcome: AttemptOutcome,
  settings: QueueSettings,
  random: () => number = Math.random,
): Promise<boolean> {
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
    if (updated.count === 0) return false;
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
    return true;
  });
}

/** A claimed delivery that will not be attempted: its endpoint was disabled meanwhile. */
export async function cancelDelivery(prisma: PrismaClient, claim: ClaimedDelivery, reason: string) {
  await prisma.webhookDelivery.updateMany({
    where: { id: claim.id, claimToken: claim.claimToken, status: "delivering" },
    data: { status: "cancelled", claimToken: null, lastError: reason },
  });
}

/** Deletes events (with their deliveries and attempts) created before `before`; returns how many. */
export async function pruneEvents(prisma: PrismaClient, before: Date): Promise<number> {
  const deleted = await prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: before } } });
  return deleted.count;
}
