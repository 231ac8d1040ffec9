// Writers of JSON text straight from rows: each is made once per document
// for one place of its selection, and writes that place's value from the
// columns the statement selected for it, every one a text (see `textOf`).
import {
  type GraphQLEnumType,
  type GraphQLEnumValue,
  type GraphQLNamedOutputType,
  isEnumType,
} from "graphql";
import type { ArrayRow } from "../../db/array-rows.js";
import type { ScalarColumn } from "../../db/data-model.js";
import { contractSpelling } from "../../domain/contract-vocabulary.js";
import type { PageRequest } from "../page-window.js";
import { idleParts, JsonParts } from "./json-parts.js";

/**
 * A row's column texts by position, as the database's readers hand it over
 * (`Reader.selectRows`), or a row of a list built in SQL as a JSON array.
 */
export type Row = ArrayRow;

/** What a request adds to the rows: values fields read from the context. */
export interface RequestValues {
  appBaseUrl: string;
  /** The page of each connection below the root, by its slot (`PlanContext.addSlot`). */
  pages: readonly (PageRequest | null)[];
}

/**
 * Writes one value's JSON text from a row. `into` adds the text in parts
 * (the rows' own texts, and constants) to `out`: a writer made of others
 * writes through theirs, so that a row's text is joined once, with no
 * intermediate text per field.
 */
export interface Writer {
  (row: Row, request: RequestValues): string;
  readonly into: (row: Row, request: RequestValues, out: JsonParts) => void;
}

/** A `Writer` whose text is made whole by `write` (a value made of several reads, such as a page). */
export function wholeWriter(write: (row: Row, request: RequestValues) => string): Writer {
  return Object.assign(write, {
    into: (row: Row, request: RequestValues, out: JsonParts) => out.add(write(row, request)),
  });
}

/** A `Writer` from what its `into` adds. */
export function writerOf(into: Writer["into"]): Writer {
  const write = (row: Row, request: RequestValues) => {
    const parts = idleParts.pop() ?? new JsonParts();
    try {
      parts.clear();
      into(row, request, parts);
      return parts.joined();
    } finally {
      idleParts.push(parts);
    }
  };
  return Object.assign(write, { into });
}

/** How values are spelled in the JSON written: the API's own choices. */
export interface OutputSpelling {
  /** The JSON text of an enum value. */
  enumValue(type: GraphQLEnumType, value: GraphQLEnumValue): string;
  /** The JSON text of a decimal, given its digits as `Decimal#toFixed()` writes them. */
  decimal(digits: string): string;
}

/** A value the rows cannot give as normal execution would (a null where none can be): the request runs normally. */
export class RowValueError extends Error {
  override readonly name = "RowValueError";
}

/**
 * Why a selection cannot be planned, as a code from a fixed list: /metrics
 * counts refusals by it, so it must never carry a document's own text.
 */
export const PLAN_REFUSALS = [
  /**
   * A root field with no planned read (declared in read-metadata.ts): one
   * that computes its answer says why (`executedReadExtension`).
   */
  "root_field",
  /** `__schema` or `__type`: introspection is executed. */
  "introspection",
  /** A field of a connection or of its edge that is none of `nodes`, `edges { node cursor }`, `pageInfo`, `totalCount`. */
  "connection_field",
  /** A field whose resolver declares nothing it reads, or arguments its read does not declare. */
  "undeclared_field",
  /** A declared read the statement cannot express (a path, a column's type). */
  "read_shape",
  /** Not a query. */
  "operation",
] as const;

export type PlanRefusal = (typeof PLAN_REFUSALS)[number];

/**
 * Arguments of a place below the root that execution refuses (a nested
 * connection's `first: 0`), met where the read writes that place: execution
 * answers the request, with the error on that place. Where no parent row
 * holds the place, the read answers without it, as execution does.
 */
export class ArgumentsRefusedError extends Error {
  override readonly name = "ArgumentsRefusedError";
}

/** A selection the planner cannot compile: its code for /metrics, and a reason the startup log shows. */
export class PlanError extends Error {
  override readonly name = "PlanError";

  constructor(
    message: string,
    readonly refusal: PlanRefusal = "read_shape",
  ) {
    super(message);
  }
}

// A timestamp's text as PostgreSQL writes it in UTC, in DateStyle ISO (its
// default): "2025-06-01 12:34:56.7", the fraction without trailing zeros. A
// year outside 1 to 9999 is written otherwise (5 digits, " BC"), and so is
// every time under another DateStyle: such a text is refused, and the request
// runs normally.
const ISO_TIME_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,3})?$/;

/** A timestamp's text (`textOf`) as `Date#toISOString()` writes it; a time it would write otherwise throws. */
export function isoTime(text: string): string {
  if (!ISO_TIME_TEXT.test(text)) throw new RowValueError(`${text} is no time of the years 1 to 9999`);
  const fraction = text.length === 19 ? ".000" : text.slice(19).padEnd(4, "0");
  return `${text.slice(0, 10)}T${text.slice(11, 19)}${fraction}Z`;
}

/**
 * The SQL text of a column's value, as every writer reads it: timestamps in
 * UTC (`isoTime` reads them; cheaper for PostgreSQL than `to_char`), lists as
 * JSON arrays, everything else as PostgreSQL writes it as text. Texts arrive
 * alike from PGlite and pg: both hand over strings, UUIDs and enums as they
 * are, so only other types are cast (a cast is a copy of every value).
 */
export function textOf(column: ScalarColumn, sql: string): string {
  if (column.isList) return `array_to_json(${sql})::text`;
  if (column.type === "DateTime") return `(${sql} AT TIME ZONE 'UTC')::text`;
  if (column.type === "String" || column.isEnum) return sql;
  return `${sql}::text`;
}

/** A decimal's digits as `Decimal#toFixed()` writes them: no trailing zeros after the point. */
export function decimalDigits(text: string): string {
  if (!text.includes(".")) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end -= 1; // "0"
  if (text.charCodeAt(end - 1) === 46) end -= 1; // "."
  return text.slice(0, end);
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The Prisma types a GraphQL scalar may be read from. */
const SCALAR_SOURCES: Readonly<Record<string, readonly string[]>> = {
  String: ["String"],
  ID: ["String"],
  UUID: ["String"],
  Int: ["Int"],
  Float: ["Float"],
  Boolean: ["Boolean"],
  Decimal: ["Decimal"],
  DateTime: ["DateTime"],
};

/** The JSON text of one item (not null) of `column`, for the GraphQL type it is answered as. */
export function itemEncoder(
  type: GraphQLNamedOutputType,
  column: ScalarColumn,
  spelling: OutputSpelling,
): (text: string) => string {
  if (isEnumType(type)) {
    if (!column.isEnum) throw new PlanError(`${column.name} is not stored as an enum`);
    // The database stores each value in the contract's spelling (src/domain/contract-vocabulary.ts).
    const byLabel = new Map<string, string>();
    for (const value of type.getValues())
      byLabel.set(contractSpelling(String(value.value)), spelling.enumValue(type, value));
    return (label) => {
      const text = byLabel.get(label);
      if (text === undefined) throw new RowValueError(`${label} is no value of ${type.name}`);
      return text;
    };
  }
  if (!SCALAR_SOURCES[type.name]?.includes(column.type) || column.isEnum)
    throw new PlanError(`${type.name} cannot be read from ${column.name} (${column.type})`);
  switch (type.name) {
    case "Int":
      return (text) => text;
    case "Float":
      return (text) => {
        const value = Number(text);
        if (!Number.isFinite(value)) throw new RowValueError(`${text} is no finite Float`);
        return JSON.stringify(value);
      };
    case "Boolean":
      return (text) => (text === "t" || text === "true" ? "true" : "false");
    case "Decimal":
      return (text) => {
        // What the Decimal scalar accepts; PostgreSQL's numeric also holds NaN and infinities.
        if (!DECIMAL.test(text)) throw new RowValueError(`${text} is no finite decimal`);
        return spelling.decimal(decimalDigits(text));
      };
    case "DateTime":
      return (text) => `"${isoTime(text)}"`;
    default:
      return jsonString;
  }
}

// What `JSON.stringify` escapes in a string: quotes, backslashes, controls, and
// surrogates (a lone one is escaped; a pair goes through unchanged).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as `JSON.stringify` writes it; most texts need no escape, and are only quoted. */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A scalar value (or a list of them) at `key`; a null where GraphQL allows none makes the request run normally. */
export function scalarWriter(
  key: number,
  encode: (text: string) => string,
  shape: { list: boolean; nullable: boolean; itemsNullable: boolean },
): Writer {
  const absent = (what: string) => {
    if (!shape.nullable) throw new RowValueError(`${what} is null`);
    return "null";
  };
  if (!shape.list && encode === jsonString)
    // A text most often needs no escape: its quotes and itself are parts, and no new text is made.
    return writerOf((row, _request, out) => {
      const text = row[key];
      if (typeof text !== "string") out.add(absent(`column ${key}`));
      else if (ESCAPED.test(text)) out.add(JSON.stringify(text));
      else {
        out.add('"');
        out.add(text);
        out.add('"');
      }
    });
  if (!shape.list)
    return writerOf((row, _request, out) => {
      const text = row[key];
      out.add(typeof text === "string" ? encode(text) : absent(`column ${key}`));
    });
  return writerOf((row, _request, out) => {
    const text = row[key];
    // Prisma reads a list column that is null as an empty list.
    if (typeof text !== "string") {
      out.add("[]");
      return;
    }
    const items: unknown = JSON.parse(text);
    if (!Array.isArray(items)) throw new RowValueError(`column ${key} is no list`);
    out.add("[");
    for (let index = 0; index < items.length; index += 1) {
      const item: unknown = items[index];
      if (index > 0) out.add(",");
      if (typeof item === "string") out.add(encode(item));
      else if (item === null && shape.itemsNullable) out.add("null");
      else throw new RowValueError(`an item of column ${key} is ${item === null ? "null" : "no text"}`);
    }
    out.add("]");
  });
}

/** The same JSON text for every row: a `__typename`. */
export function constantWriter(json: string): Writer {
  return writerOf((_row, _request, out) => {
    out.add(json);
  });
}

/** An object of fields written in the selection's order, each under its response key. */
export function objectWriter(fields: readonly { key: string; write: Writer }[]): Writer {
  const prefixes = fields.map(({ key }, index) => `${index === 0 ? "{" : ","}${JSON.stringify(key)}:`);
  const writes = fields.map(({ write }) => write.into);
  return writerOf((row, request, out) => {
    if (writes.length === 0) out.add("{");
    for (let index = 0; index < writes.length; index += 1) {
      out.add(prefixes[index] ?? "");
      writes[index]?.(row, request, out);
    }
    out.add("}");
  });
}

/** Null when a column at `presence` is null (a joined row's id: the row is absent), else `write`. */
export function presentWriter(presence: readonly number[], write: Writer, nullable: boolean): Writer {
  return writerOf((row, request, out) => {
    if (presence.every((key) => row[key] !== null && row[key] !== undefined)) {
      write.into(row, request, out);
      return;
    }
    if (!nullable) throw new RowValueError(`a required value is absent (columns ${presence.join(", ")})`);
    out.add("null");
  });
}

/** A Boolean: whether the text at `key` differs from `text`. */
export function differsWriter(key: number, text: string, nullable: boolean): Writer {
  return writerOf((row, _request, out) => {
    const value = row[key];
    if (typeof value === "string") out.add(value === text ? "false" : "true");
    else if (!nullable) throw new RowValueError(`column ${key} is null`);
    else out.add("null");
  });
}

/** Whether a list built in SQL, parsed, is rows: arrays of texts (or nulls). */
export function isRowList(value: unknown): value is Row[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) => Array.isArray(item) && item.every((text) => text === null || typeof text === "string"),
    )
  );
}

/** A list of rows built in SQL as a JSON array of arrays at `key` (null: no rows), each written by `write`. */
export function rowListWriter(key: number, write: Writer): Writer {
  return writerOf((row, request, out) => {
    const text = row[key];
    if (typeof text !== "string") {
      out.add("[]");
      return;
    }
    const rows: unknown = JSON.parse(text);
    if (!isRowList(rows)) throw new RowValueError(`column ${key} is no list of rows`);
    out.add("[");
    for (let index = 0; index < rows.length; index += 1) {
      const item = rows[index];
      if (item === undefined) continue;
      if (index > 0) out.add(",");
      write.into(item, request, out);
    }
    out.add("]");
  });
}

/** A value written by `write` from the one row built in SQL as a JSON array at `key` (an aggregate subquery's). */
export function subRowWriter(key: number, write: Writer): Writer {
  return writerOf((row, request, out) => {
    const text = row[key];
    const rows: unknown = typeof text === "string" ? [JSON.parse(text)] : null;
    if (!isRowList(rows) || rows[0] === undefined) throw new RowValueError(`column ${key} is no row`);
    write.into(rows[0], request, out);
  });
}

/** One part of a text value: literal, the request's base URL, or a column's text. */
export type TextSource = { literal: string } | { context: "appBaseUrl" } | { key: number };

/**
 * A String joined from parts; null when a column part is null. Parts that
 * need no escape are written as they are, between the quotes; otherwise the
 * joined text is escaped whole (a surrogate pair may span two parts).
 */
export function textWriter(sources: readonly TextSource[], nullable: boolean): Writer {
  const texts: string[] = [];
  return writerOf((row, request, out) => {
    texts.length = 0;
    let escaped = false;
    for (const source of sources) {
      const text =
        "literal" in source ? source.literal : "context" in source ? request.appBaseUrl : row[source.key];
      if (typeof text !== "string") {
        if (!nullable) throw new RowValueError("a column of a text is null");
        out.add("null");
        return;
      }
      escaped ||= ESCAPED.test(text);
      texts.push(text);
    }
    if (escaped) out.add(JSON.stringify(texts.join("")));
    else {
      out.add('"');
      for (const text of texts) out.add(text);
      out.add('"');
    }
  });
}
