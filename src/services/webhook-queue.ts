// The webhook delivery queue: rows of `webhook_deliveries` in PostgreSQL (or
// PGlite), shared by every server process. A process claims due rows with
// FOR UPDATE SKIP LOCKED, so each delivery is attempted by one process at a
// time; a claim is a lease (`available_at` moves to its end), so a process
// that dies mid-delivery only delays it: once the lease runs out another
// process claims it again. Nothing is lost, and an attempt's result is
// written only by the claim that made it. This file queues, cancels and
// prunes; the claim, the release of leases that ran out and the writing of
// outcomes have files of their own beside it.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { ClaimedDelivery } from "./webhook-claim.js";

/** NOTIFY'd when deliveries are queued, so idle workers start at once instead of at their next poll. */
export const WEBHOOK_WORK_CHANNEL = "webhook_work";

export interface QueueSettings {
  retryScheduleMs: readonly number[];
  retryJitter: number;
  leaseMs: number;
  disableFailingAfterMs: number;
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
