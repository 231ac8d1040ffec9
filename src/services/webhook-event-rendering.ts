// The statements of rendering the change log into events (the worker's
// materializer, src/webhooks/materializer.ts, decides what to write): one
// transaction per batch, the entries it claims off `change_log_unrendered`
// with FOR UPDATE SKIP LOCKED, so that several processes render side by side
// without rendering an entry twice, the endpoints the events go to, and the
// events themselves.
import type { ChangeLogEntry } from "../db/change-log.js";
import type { Prisma, PrismaClient } from "../db/generated/prisma/client.js";
import { parseExactJson } from "../domain/webhook-events.js";

type Transaction = Prisma.TransactionClient;

/** An event row as the batch insert takes it. */
export interface EventRow {
  id: string;
  buyer_id: string;
  type: string;
  /** `{"object":…}` around the rendered text, which goes in unchanged. */
  data: string;
  change_seq: string;
  created_at: string;
}

export interface SubscribedEndpoint {
  id: string;
  buyerId: string;
  enabledEvents: string[];
  createdAt: Date;
}

/** How long a batch's transaction may run, and wait for a connection to start (the configuration's). */
export interface RenderingTransactionLimits {
  timeoutMs: number;
  waitMs: number;
}

/**
 * Runs one batch's rendering in one transaction, which commits before the
 * next batch starts: its size and memory stay bounded, and a process that
 * dies mid-way loses only its uncommitted batch, whose entries stay listed.
 */
export function inRenderingTransaction<Result>(
  prisma: PrismaClient,
  limits: RenderingTransactionLimits,
  render: (tx: Transaction) => Promise<Result>,
): Promise<Result> {
  return prisma.$transaction(render, { timeout: limits.timeoutMs, maxWait: limits.waitMs });
}

/**
 * Takes up to `limit` entries off the unrendered list, with their
 * transactions' other entries about the same records; `claimedCount` counts
 * only the first kind, which is what `limit` bounds.
 */
export async function claimUnrenderedEntries(
  tx: Transaction,
  limit: number,
): Promise<{ claimedCount: number; entries: ChangeLogEntry[] }> {
  const claimed = await tx.$queryRaw<{ seq: bigint }[]>`
    DELETE FROM change_log_unrendered WHERE seq IN (
      SELECT seq FROM change_log_unrendered ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING seq`;
  if (claimed.length === 0) return { claimedCount: 0, entries: [] };
  // The rest of the same transactions' entries about the same records, should the limit have cut
  // them off: one change of a record is one event. Only those records', so that a transaction of a
  // whole import still renders batch by batch.
  const siblings = await tx.$queryRaw<{ seq: bigint }[]>`
    DELETE FROM change_log_unrendered WHERE seq IN (
      SELECT u.seq FROM change_log AS claimed
      JOIN change_log AS c
        ON c.buyer_id = claimed.buyer_id AND c.record_type = claimed.record_type
        AND c.record_id = claimed.record_id AND c.version = claimed.version
      JOIN change_log_unrendered AS u ON u.seq = c.seq
      WHERE claimed.seq = ANY(${claimed.map((row) => row.seq)}::bigint[])
      FOR UPDATE OF u SKIP LOCKED)
    RETURNING seq`;
  // `previous` as text, parsed here with every digit of its amounts (Prisma's Json would round them).
  const rows = await tx.$queryRaw<(Omit<ChangeLogEntry, "previous"> & { previous: string | null })[]>`
    SELECT seq, buyer_id AS "buyerId", record_type AS "recordType", record_id AS "recordId", change,
           previous::text AS previous, version, changed_at AS "changedAt"
    FROM change_log WHERE seq = ANY(${[...claimed, ...siblings].map((row) => row.seq)}::bigint[])
    ORDER BY seq`;
  const entries: ChangeLogEntry[] = rows.map((row) => ({
    ...row,
    previous: row.previous === null ? null : (parseExactJson(row.previous) as Record<string, unknown>),
  }));
  return { claimedCount: claimed.length, entries };
}

/** The endpoints of these buyers that receive events (every one not disabled), with the types they take and when they were created. */
export function subscribedEndpoints(
  tx: Transaction,
  buyerIds: readonly string[],
): Promise<SubscribedEndpoint[]> {
  return tx.webhookEndpoint.findMany({
    where: { buyerId: { in: [...buyerIds] }, status: { not: "disabled" } },
    select: { id: true, buyerId: true, enabledEvents: true, createdAt: true },
  });
}

// One insert for the batch's events (and queueEventDeliveries one for their deliveries), not one
// per event. The events go as one JSON text that PostgreSQL takes apart (each `data` a JSON string,
// stored as its text): Prisma's createMany sends every field of every row as a parameter, and took
// several times as long for a batch.
export async function insertEvents(tx: Transaction, events: readonly EventRow[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_events (id, buyer_id, type, data, change_seq, created_at)
    SELECT e.id, e.buyer_id, e.type, e.data, e.change_seq, e.created_at
    FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
      AS e(id uuid, buyer_id uuid, type text, data text, change_seq bigint, created_at timestamptz)`;
}
