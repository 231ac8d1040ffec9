// Renders the change log into events. The change log (change_log, written by
// triggers in every writing transaction) is the one record of what changed;
// `webhook_events` is its rendering for integrators: each event carries the
// record in its REST shape, and each is queued to the buyer's endpoints that
// subscribe to its type, in the same transaction that marks its log entries
// rendered. Entries to render are listed in `change_log_unrendered` by a
// trigger, and claimed here with FOR UPDATE SKIP LOCKED, so several
// processes can render side by side without rendering an entry twice.
import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../db/generated/prisma/client.js";
import { endpointReceives } from "../domain/webhook-events.js";
import { queueEventDeliveries } from "../domain/webhook-queue.js";

type Transaction = Prisma.TransactionClient;

export interface RenderRequest {
  recordType: string;
  recordId: string;
  buyerId: string;
  changedAt: Date;
}

/** The record in its REST shape, read inside `tx`; null when the buyer cannot see it (any more). */
export type RecordRenderer = (
  tx: Transaction,
  request: RenderRequest,
) => Promise<Record<string, unknown> | null>;

interface LogEntry {
  seq: bigint;
  buyerId: string;
  recordType: string;
  recordId: string;
  change: string;
  previous: unknown;
  version: bigint;
  changedAt: Date;
}

/** Database columns whose REST field has another name. */
const FIELD_FOR_COLUMN: Record<string, string> = { supplier_id: "supplier_profile_id" };

/**
 * `previous_attributes`: the earlier values of the changed fields that the
 * object shows, in its spelling (an ISO date-time with milliseconds where the
 * object has one, a number where it has a number).
 */
export function previousAttributes(
  previous: Record<string, unknown>,
  object: Record<string, unknown>,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(previous)) {
    const field = FIELD_FOR_COLUMN[column] ?? column;
    if (!(field in object)) continue;
    const current = object[field];
    if (typeof value === "string" && typeof current === "number") attributes[field] = Number(value);
    else if (typeof value === "string" && isDateTime(current) && !Number.isNaN(Date.parse(value)))
      attributes[field] = new Date(value).toISOString();
    else attributes[field] = value;
  }
  return attributes;
}

function isDateTime(value: unknown): boolean {
  if (value instanceof Date) return true;
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value);
}

/**
 * Entries of one transaction about one record are one change: a creation
 * (whatever else the transaction did to the record), or an update whose
 * previous values are, key by key, those of its earliest entry.
 */
export function groupChanges(
  entries: LogEntry[],
): { first: LogEntry; change: string; previous: Record<string, unknown> }[] {
  const groups = new Map<string, LogEntry[]>();
  for (const entry of entries) {
    const key = `${entry.buyerId}|${entry.version}|${entry.recordType}|${entry.recordId}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()].map((group) => {
    const sorted = group.sort((a, b) => (a.seq < b.seq ? -1 : 1));
    const first = sorted[0] as LogEntry;
    const created = sorted.some((entry) => entry.change === "created");
    const previous: Record<string, unknown> = {};
    for (const entry of sorted) {
      for (const [key, value] of Object.entries((entry.previous ?? {}) as Record<string, unknown>)) {
        if (!(key in previous)) previous[key] = value;
      }
    }
    return { first, change: created ? "created" : "updated", previous };
  });
}

/**
 * Renders up to `limit` unrendered log entries (and the rest of their
 * transactions' entries about the same records) in one transaction; returns
 * how many entries it took, 0 when there were none.
 */
export async function materializeEvents(
  prisma: PrismaClient,
  render: RecordRenderer,
  limit = 200,
): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<{ seq: bigint }[]>`
        DELETE FROM change_log_unrendered WHERE seq IN (
          SELECT seq FROM change_log_unrendered ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING seq`;
      if (claimed.length === 0) return 0;
      const entries: LogEntry[] = await tx.changeLog.findMany({
        where: { seq: { in: claimed.map((row) => row.seq) } },
      });
      // The rest of a transaction's entries about the same records, should the limit have cut them off.
      const siblings = await tx.$queryRaw<{ seq: bigint }[]>`
        DELETE FROM change_log_unrendered WHERE seq IN (
          SELECT u.seq FROM change_log_unrendered AS u JOIN change_log AS c ON c.seq = u.seq
          WHERE (c.buyer_id, c.version) IN (
            SELECT c2.buyer_id, c2.version FROM change_log AS c2
            WHERE c2.seq = ANY(${claimed.map((row) => row.seq)}::bigint[]))
          FOR UPDATE OF u SKIP LOCKED)
        RETURNING seq`;
      if (siblings.length > 0) {
        entries.push(
          ...(await tx.changeLog.findMany({ where: { seq: { in: siblings.map((row) => row.seq) } } })),
        );
      }

      const endpointsByBuyer = new Map<string, { id: string; enabledEvents: string[] }[]>();
      const endpointsOf = async (buyerId: string) => {
        let endpoints = endpointsByBuyer.get(buyerId);
        if (!endpoints) {
          endpoints = await tx.webhookEndpoint.findMany({
            where: { buyerId, status: { not: "disabled" } },
            select: { id: true, enabledEvents: true },
          });
          endpointsByBuyer.set(buyerId, endpoints);
        }
        return endpoints;
      };

      const events: Prisma.WebhookEventCreateManyInput[] = [];
      const deliveries: { buyerId: string; eventId: string; endpointIds: string[] }[] = [];
      const changes = groupChanges(entries);
      // Rendered side by side: each is one single read, sent without waiting for the one before
      // (still one statement per record: plugin-prisma's reads are not batched).
      const objects = await Promise.all(changes.map(({ first }) => render(tx, first)));
      for (const [index, { first, change, previous }] of changes.entries()) {
        const type = `${first.recordType}.${change}`;
        const object = objects[index];
        if (!object) continue;
        const data: Record<string, unknown> = { object };
        if (change === "updated") data.previous_attributes = previousAttributes(previous, object);
        const eventId = randomUUID();
        events.push({
          id: eventId,
          buyerId: first.buyerId,
          type,
          data: data as Prisma.InputJsonObject,
          changeSeq: first.seq,
          createdAt: first.changedAt,
        });
        const endpointIds = (await endpointsOf(first.buyerId))
          .filter((endpoint) => endpointReceives(endpoint.enabledEvents, type))
          .map((endpoint) => endpoint.id);
        deliveries.push({ buyerId: first.buyerId, eventId, endpointIds });
      }
      // One insert for the batch's events and one for their deliveries, not one per event.
      if (events.length > 0) await tx.webhookEvent.createMany({ data: events });
      await queueEventDeliveries(tx, deliveries);
      return claimed.length;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
