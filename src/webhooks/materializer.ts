// Renders the change log into events. The change log (change_log, written by
// triggers in every writing transaction) is the one record of what changed;
// `webhook_events` is its rendering for integrators: each event carries the
// record's REST body as its JSON text, byte for byte what the REST read
// answers at that moment, and each is queued to the buyer's endpoints that
// subscribe to its type, in the same transaction that marks its log entries
// rendered. Entries to render are listed in `change_log_unrendered` by a
// trigger; the statements that claim them and write the events are
// src/services/webhook-event-rendering.ts.
import { randomUUID } from "node:crypto";
import { EVENT_RECORD_PATHS } from "../contract/event-records.js";
import type { ChangeLogEntry } from "../db/change-log.js";
import type { Prisma, PrismaClient } from "../db/generated/prisma/client.js";
import {
  endpointReceives,
  isJsonNumber,
  MAX_EVENT_DATA_BYTES,
  omittedObjectData,
  parseExactJson,
} from "../domain/webhook-events.js";
import {
  claimUnrenderedEntries,
  type EventRow,
  inRenderingTransaction,
  insertEvents,
  type RenderingTransactionLimits,
  type SubscribedEndpoint,
  subscribedEndpoints,
} from "../services/webhook-event-rendering.js";
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
  entries: ChangeLogEntry[],
): { first: ChangeLogEntry; change: string; previous: Record<string, unknown> }[] {
  const groups = new Map<string, ChangeLogEntry[]>();
  for (const entry of entries) {
    const key = `${entry.buyerId}|${entry.version}|${entry.recordType}|${entry.recordId}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()].map((group) => {
    const sorted = group.sort((a, b) => (a.seq < b.seq ? -1 : 1));
    const first = sorted[0] as ChangeLogEntry;
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

interface EventDeliveries {
  buyerId: string;
  eventId: string;
  endpointIds: string[];
}

/**
 * Renders the `limit` oldest unrendered log entries (and the other entries of
 * their transactions about the same records) in one transaction, which
 * commits before the next batch starts.
 */
export async function materializeEvents(
  prisma: PrismaClient,
  render: RecordRenderer,
  limit: number,
  transaction: RenderingTransactionLimits,
): Promise<RenderedBatch> {
  return inRenderingTransaction(prisma, transaction, (tx) => renderClaimedBatch(tx, render, limit));
}

async function renderClaimedBatch(
  tx: Transaction,
  render: RecordRenderer,
  limit: number,
): Promise<RenderedBatch> {
  const { claimedCount, entries } = await claimUnrenderedEntries(tx, limit);
  if (claimedCount === 0) return { entries: 0, events: 0, full: false };

  const endpoints = await subscribedEndpoints(tx, [...new Set(entries.map((entry) => entry.buyerId))]);

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
 * One event per change whose record the buyer can still see (`objects[i]`
 * rendered for `changes[i]`), each queued to the buyer's endpoints that
 * subscribe to its type and existed when the change was made.
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
        (endpoint) =>
          endpoint.buyerId === first.buyerId &&
          endpointReceives(endpoint.enabledEvents, type) &&
          // An endpoint hears of changes made once it exists, not of the backlog the worker renders late.
          endpoint.createdAt <= first.changedAt,
      )
      .map((endpoint) => endpoint.id);
    deliveries.push({ buyerId: first.buyerId, eventId, endpointIds });
  }
  return { events, deliveries };
}

/** An event's `data`, or its reduced form when it is over the size every event keeps to. */
function boundedData(data: string, { recordType, recordId }: ChangeLogEntry): string {
  const sizeBytes = Buffer.byteLength(data);
  if (sizeBytes <= MAX_EVENT_DATA_BYTES) return data;
  const template = EVENT_RECORD_PATHS[recordType] ?? null;
  return omittedObjectData({ id: recordId, path: template?.replace("{id}", recordId) ?? null, sizeBytes });
}
