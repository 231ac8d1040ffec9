// The cursor codec: a row's position in a sort, written as an opaque string and read back.
import { isUuid } from "../domain/uuid.js";
import {
  type ListOrder,
  NEWEST_FIRST_ORDER,
  type PagePosition,
  type SortKey,
  type SortPosition,
  type SortValue,
} from "./sort-keys.js";

/** How `encodeCursor` writes a stored time: four-digit years from 0001 (PostgreSQL has no year 0). */
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** `numeric(20,6)` as `Decimal#toFixed()` writes it. */
const CURSOR_DECIMAL = /^-?\d{1,20}(\.\d{1,6})?$/;
/** Longer than any stored name or reference a cursor carries; bounds what a client can send. */
const MAX_CURSOR_LENGTH = 4096;

/** Cursors carry ids as stored, in lower case; any other spelling was not issued by this API. */
const isIssuedId = (id: string) => isUuid(id) && id === id.toLowerCase();

/** A row's value in the sort column, as its cursor writes it. */
function sortValueOf(row: object, key: SortKey): string | null {
  const value = (row as Record<string, unknown>)[key.field];
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  // Prisma's Decimal: `toFixed()` writes every digit, never exponent notation.
  return (value as { toFixed(): string }).toFixed();
}

/**
 * The cursor of `row` in `order`. Creation-time cursors keep the form issued
 * before lists could be sorted (`time|id`), so that cursors clients already
 * hold, and REST `Link` URLs, stay valid and unchanged; every other sort key
 * writes its name, the row's value and id.
 */
export function encodeCursor(row: PagePosition | object, order: ListOrder = NEWEST_FIRST_ORDER): string {
  const { id } = row as { id: string };
  const value = sortValueOf(row, order.key);
  const text = order.name === "CREATED_AT" ? `${value}|${id}` : JSON.stringify([order.name, value, id]);
  return Buffer.from(text, "utf8").toString("base64url");
}

type DecodedCursor = { name: string; value: unknown; id: unknown };

function parseCursor(cursor: string): DecodedCursor | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== "string") return null;
      return { name: parsed[0], value: parsed[1], id: parsed[2] };
    } catch {
      return null;
    }
  }
  const [time, id, ...rest] = text.split("|");
  if (rest.length > 0 || time === undefined || id === undefined) return null;
  return { name: "CREATED_AT", value: time, id };
}

function parseSortValue(value: unknown, key: SortKey): SortValue | undefined {
  if (value === null) return key.nullable ? null : undefined;
  if (typeof value !== "string") return undefined;
  switch (key.kind) {
    case "time": {
      if (!CURSOR_TIME.test(value)) return undefined;
      const time = new Date(value);
      return Number.isNaN(time.getTime()) || time.toISOString() !== value ? undefined : time;
    }
    case "decimal":
      return CURSOR_DECIMAL.test(value) ? value : undefined;
    case "id":
      return isIssuedId(value) ? value : undefined;
    case "text":
      return value;
  }
}

/** A creation-time cursor, for the lists that are always newest first. */
export function decodeCursor(cursor: string): PagePosition | null {
  const decoded = decodeSortCursor(cursor, NEWEST_FIRST_ORDER);
  if (decoded.kind !== "position" || !(decoded.position.value instanceof Date)) return null;
  return { createdAt: decoded.position.value, id: decoded.position.id };
}

type DecodedSortCursor =
  | { kind: "position"; position: SortPosition }
  | { kind: "other-sort"; name: string }
  | { kind: "not-issued" };

/** Reads a cursor for `order`; a cursor of another sort key is told apart from one never issued. */
export function decodeSortCursor(cursor: string, order: ListOrder): DecodedSortCursor {
  const parsed = parseCursor(cursor);
  if (!parsed) return { kind: "not-issued" };
  if (typeof parsed.id !== "string" || !isIssuedId(parsed.id)) return { kind: "not-issued" };
  if (parsed.name !== order.name) {
    return /^[A-Z][A-Z_]{0,39}$/.test(parsed.name)
      ? { kind: "other-sort", name: parsed.name }
      : { kind: "not-issued" };
  }
  const value = parseSortValue(parsed.value, order.key);
  return value === undefined
    ? { kind: "not-issued" }
    : { kind: "position", position: { value, id: parsed.id } };
}
