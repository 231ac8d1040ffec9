// Renders the change log into events. The change log (change_log, written by
// triggers in every writing transaction) is the one record of what changed;
// `webhook_events` is its rendering for integrators: each event carries the
// record's REST body as its JSON text, byte for byte what the REST read
// answers at that moment, and each is queued to the buyer's endpoints that
// subscribe to its type, in the same transaction that marks its log entries
// rendered. Entries to render are listed in `change_log_unrendered` by a
// trigger, and claimed here with FOR UPDATE SKIP LOCKED, so several
// processes can render side by side without rendering an entry twice.
import { randomUUID } from "node:crypto";
import { EVENT_RECORD_PATHS } from "../contract/event-records.js";
import type { Prisma, PrismaClient } from "../db/generated/prisma/client.js";
import {
  endpointReceives,
  isJsonNumber,
  MAX_EVENT_DATA_BYTES,
  omittedObjectData,
  parseExactJson,
} from "../domain/webhook-events.js";
import { queueEventDeliveries } from "../services/webhook-queue.js";

type Transaction = Prisma.TransactionClient;

export interface RenderRequest {
  recordType: string;
  recordId: string;
  buyerId: string;
  changedAt: Date;
}

/**
 * The records' REST bodies as JSON text (what the REST read would send), read
 * inside `tx`, in the order asked; null where the buyer cannot see the record
 * (any more). Given a batch at once, so that it reads each record type with
 * one statement rather than one per record.
 */
export type RecordRenderer = (
  tx: Transaction,
  requests: readonly RenderRequest[],
) => Promise<(string | null)[]>;

/** What one rendering transaction did, once it committed. */
export interface RenderedBatch {
  /** Change log entries it took off the list. */
  entries: number;
  /** Events it wrote. */
  events: number;
  /** Whether it claimed as many entries as it was allowed to, so that more may be waiting. */
  full: boolean;
}

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
 * object has one; a number where it has a number, with every digit, written
 * as REST writes amounts). Numbers in both come from parseExactJson.
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
    if (isJsonNumber(current) && (typeof value === "string" || isJsonNumber(value)))
      attributes[field] = asJsonNumber(value);
    else if (typeof value === "string" && isDateTime(current) && !Number.isNaN(Date.parse(value)))
      attributes[field] = new Date(value).toISOString();
    else attributes[field] = value;
  }
  return attributes;
}

const DECIMAL_WITH_FRACTION = /^-?\d+\.\d+$/;

/**
 * A column's value as the JSON number REST writes: PostgreSQL writes a
 * numeric(20,6) with its scale ("4.000000"), REST without trailing zeros ("4").
 */
function asJsonNumber(value: unknown): unknown {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (DECIMAL_WITH_FRACTION.test(text)) return JSON.rawJSON(text.replace(/\.?0+$/, ""));
  if (/^-?\d+$/.test(text)) return JSON.rawJSON(text);
  return typeof value === "string" ? Number(value) : value;
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

/** An event row as the batch insert takes it. */
interface EventRow {
  id: string;
  buyer_id: string;
  type: string;
  /** `{"object":…}` around the rendered text, which goes in unchanged. */
  data: string;
  change_seq: string;
  created_at: string;
}

interface EventDeliveries {
  buyerId: string;
  eventId: string;
  endpointIds: string[];
}

interface SubscribedEndpoint {
  id: string;
  buyerId: string;
  enabledEvents: string[];
}

/**
 * Renders the `limit` oldest unrendered log entries (and the other entries of
 * their transactions about the same records) in one transaction, which
 * commits before the next batch starts: however long the list, a
 * transaction's size and memory stay bounded, and a process that dies
 * mid-way loses only its uncommitted batch, whose entries stay listed.
 */
export async function materializeEvents(
  prisma: PrismaClient,
  render: RecordRenderer,
  limit = 200,
): Promise<RenderedBatch> {
  return prisma.$transaction((tx) => renderClaimedBatch(tx, render, limit), {
    timeout: 60_000,
    maxWait: 10_000,
  });
}

async function renderClaimedBatch(
  tx: Transaction,
  render: RecordRenderer,
  limit: number,
): Promise<RenderedBatch> {
  const { claimedCount, entries } = await claimLogEntries(tx, limit);
  if (claimedCount === 0) return { entries: 0, events: 0, full: false };

  const buyerIds = [...new Set(entries.map((entry) => entry.buyerId))];
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { buyerId: { in: buyerIds }, status: { not: "disabled" } },
    select: { id: true, buyerId: true, enabledEvents: true },
  });

  const changes = groupChanges(entries);
  const objects = await render(
    tx,
    changes.map(({ first }) => first),
  );
  const { events, deliveries } = eventsForChanges(changes, objects, endpoints);
  await insertEvents(tx, events);
  await queueEventDeliveries(tx, deliveries);
  return { entries: entries.length, events: events.length, full: claimedCount >= limit };
}

/**
 * Takes up to `limit` entries off the unrendered list, with their
 * transactions' other entries about the same records; `claimedCount` counts
 * only the first kind, which is what `limit` bounds.
 */
async function claimLogEntries(
  tx: Transaction,
  limit: number,
): Promise<{ claimedCount: number; entries: LogEntry[] }> {
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
  const rows = await tx.$queryRaw<(Omit<LogEntry, "previous"> & { previous: string | null })[]>`
    SELECT seq, buyer_id AS "buyerId", record_type AS "recordType", record_id AS "recordId", change,
           previous::text AS previous, version, changed_at AS "changedAt"
    FROM change_log WHERE seq = ANY(${[...claimed, ...siblings].map((row) => row.seq)}::bigint[])
    ORDER BY seq`;
  const entries: LogEntry[] = rows.map((row) => ({
    ...row,
    previous: row.previous === null ? null : parseExactJson(row.previous),
  }));
  return { claimedCount: claimed.length, entries };
}

/**
 * One event per change whose record the buyer can still see (`objects[i]`
 * rendered for `changes[i]`), each queued to the buyer's endpoints that
 * subscribe to its type.
 */
function eventsForChanges(
  changes: ReturnType<typeof groupChanges>,
  objects: readonly (string | null)[],
  endpoints: readonly SubscribedEndpoint[],
): { events: EventRow[]; deliveries: EventDeliveries[] } {
  const events: EventRow[] = [];
  const deliveries: EventDeliveries[] = [];
  for (const [index, { first, change, previous }] of changes.entries()) {
    const type = `${first.recordType}.${change}`;
    const object = objects[index];
    if (!object) continue;
    const data = boundedData(
      change === "updated"
        ? `{"object":${object},"previous_attributes":${JSON.stringify(
            previousAttributes(previous, parseExactJson(object) as Record<string, unknown>),
          )}}`
        : `{"object":${object}}`,
      first,
    );
    const eventId = randomUUID();
    events.push({
      id: eventId,
      buyer_id: first.buyerId,
      type,
      data,
      change_seq: String(first.seq),
      created_at: first.changedAt.toISOString(),
    });
    const endpointIds = endpoints
      .filter(
        (endpoint) => endpoint.buyerId === first.buyerId && endpointReceives(endpoint.enabledEvents, type),
      )
      .map((endpoint) => endpoint.id);
    deliveries.push({ buyerId: first.buyerId, eventId, endpointIds });
  }
  return { events, deliveries };
}

/** An event's `data`, or its reduced form when it is over the size every event keeps to. */
function boundedData(data: string, { recordType, recordId }: LogEntry): string {
  const sizeBytes = Buffer.byteLength(data);
  if (sizeBytes <= MAX_EVENT_DATA_BYTES) return data;
  const template = EVENT_RECORD_PATHS[recordType] ?? null;
  return omittedObjectData({ id: recordId, path: template?.replace("{id}", recordId) ?? null, sizeBytes });
}

// One insert for the batch's events (and queueEventDeliveries one for their deliveries), not one
// per event. The events go as one JSON text that PostgreSQL takes apart (each `data` a JSON string,
// stored as its text): Prisma's createMany sends every field of every row as a parameter, and took
// several times as long for a batch.
async function insertEvents(tx: Transaction, events: readonly EventRow[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO webhook_events (id, buyer_id, type, data, change_seq, created_at)
    SELECT e.id, e.buyer_id, e.type, e.data, e.change_seq, e.created_at
    FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
      AS e(id uuid, buyer_id uuid, type text, data text, change_seq bigint, created_at timestamptz)`;
}
