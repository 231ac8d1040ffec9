// The `query:` argument of the root lists: a small search grammar, written
// once here and given meaning per list by a table of keys.
//
//   query   = term { " " term }
//   term    = key ":" value | word
//   value   = bare | '"' { any character but '"' } '"'
//   bare    = one or more characters other than space and '"'
//
// Terms are ANDed. A key may appear once; a key's value may list several
// alternatives separated by commas (`status:shipped,delivered`), ORed. Each
// list says which keys it knows and what a bare word searches. Every mistake
// is reported as VALIDATION_FAILED on `query` with the position it was found
// at (1-based), never silently ignored.
import { contractSpelling } from "../domain/contract-vocabulary.js";
import type { FieldProblem } from "../domain/errors.js";
import { isUuid } from "../domain/uuid.js";
import { inclusiveDays } from "./day-range.js";
import { graphqlEnumName } from "./enums.js";
import { decodeGlobalId, type NodeTypeName } from "./global-ids.js";

/** The longest query accepted: a search box, not a document. */
export const MAX_QUERY_LENGTH = 500;
/** How many terms one query may hold, so that a query stays one cheap statement. */
export const MAX_QUERY_TERMS = 10;

export interface QueryTerm {
  /** Lower-cased key, or null for a bare word. */
  key: string | null;
  value: string;
  /** 1-based position of the term in the query. */
  position: number;
}

/** What a key means on one list: a condition for its value (src/schema/conditions.ts), or a complaint about it. */
export interface QueryKey {
  /** One line for the docs and the error that lists the known keys. */
  description: string;
  toWhere: (value: string) => object | string;
}

export interface QueryGrammar {
  keys: Record<string, QueryKey>;
  /** What a bare word matches; null when this list takes no bare words. */
  word: ((word: string) => object | string) | null;
}

export class QuerySyntaxError extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

/** Splits a query into terms; throws QuerySyntaxError for an unclosed quote or an empty value. */
export function tokenize(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let index = 0;
  while (index < query.length) {
    if (/\s/.test(query[index] ?? "")) {
      index += 1;
      continue;
    }
    const start = index;
    const keyMatch = /^([A-Za-z_]+):/.exec(query.slice(index));
    let key: string | null = null;
    if (keyMatch?.[1]) {
      key = keyMatch[1].toLowerCase();
      index += keyMatch[0].length;
    }
    let value: string;
    if (query[index] === '"') {
      const close = query.indexOf('"', index + 1);
      if (close === -1) throw new QuerySyntaxError(index + 1, 'has a quote (") that is never closed');
      value = query.slice(index + 1, close);
      index = close + 1;
      if (index < query.length && !/\s/.test(query[index] ?? "")) {
        throw new QuerySyntaxError(index + 1, "needs a space after a closing quote");
      }
    } else {
      const end = query.slice(index).search(/[\s"]/);
      const stop = end === -1 ? query.length : index + end;
      if (query[stop] === '"') {
        throw new QuerySyntaxError(stop + 1, "has a quote inside a word; quote the whole value");
      }
      value = query.slice(index, stop);
      index = stop;
    }
    if (value.trim() === "") {
      throw new QuerySyntaxError(
        start + 1,
        key ? `has no value after "${key}:"` : "has an empty quoted word",
      );
    }
    terms.push({ key, value, position: start + 1 });
  }
  return terms;
}

/**
 * The conditions a query's terms mean on a list, all of which hold, or null
 * when it cannot be read; then `problems` says why, on the argument `query`.
 */
export function parseListQuery(
  query: string,
  grammar: QueryGrammar,
  problems: FieldProblem[],
): object[] | null {
  const problem = (message: string) => {
    problems.push({ path: ["query"], code: "invalid", message });
    return null;
  };
  if (query.length > MAX_QUERY_LENGTH) return problem(`must be at most ${MAX_QUERY_LENGTH} characters`);
  // PostgreSQL text cannot hold U+0000: the statement would fail.
  const nul = query.indexOf("\u0000");
  if (nul !== -1) return problem(`must not contain the NUL character (U+0000) (at character ${nul + 1})`);
  let terms: QueryTerm[];
  try {
    terms = tokenize(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError)
      return problem(`${error.message} (at character ${error.position})`);
    throw error;
  }
  if (terms.length > MAX_QUERY_TERMS) return problem(`must hold at most ${MAX_QUERY_TERMS} terms`);
  const known = Object.keys(grammar.keys);
  const seen = new Set<string>();
  const conditions: object[] = [];
  for (const term of terms) {
    const at = ` (at character ${term.position})`;
    let condition: object | string;
    if (term.key === null) {
      if (!grammar.word) return problem(`takes only key:value terms (${known.join(", ")})${at}`);
      condition = grammar.word(term.value);
    } else {
      const key = grammar.keys[term.key];
      if (!key) return problem(`has an unknown key "${term.key}"; known keys: ${known.join(", ")}${at}`);
      if (seen.has(term.key)) {
        return problem(`has "${term.key}:" twice; list alternatives with commas instead${at}`);
      }
      seen.add(term.key);
      condition = key.toWhere(term.value);
    }
    if (typeof condition === "string") {
      return problem(`${term.key ? `"${term.key}:"` : `the word "${term.value}"`} ${condition}${at}`);
    }
    conditions.push(condition);
  }
  return conditions;
}

/** A value's comma-separated alternatives; empty alternatives are a mistake, not skipped. */
export function alternatives(value: string): string[] | null {
  const parts = value.split(",").map((part) => part.trim());
  return parts.every((part) => part !== "") ? parts : null;
}

/**
 * `PO-1*` → { startsWith: "PO-1" }; `PO-1` → { equals: "PO-1" }. A `*`
 * anywhere but at the end is refused: only prefixes are indexed.
 */
export function textMatch(value: string): { startsWith: string } | { equals: string } | string {
  const star = value.indexOf("*");
  if (star === -1) return { equals: value };
  if (star !== value.length - 1) return "may use * only at the end of a value (a prefix)";
  if (star === 0) return "needs at least one character before *";
  return { startsWith: value.slice(0, -1) };
}

/** `2025-01-01`, `2025-01-01..2025-03-31`, `2025-01-01..` or `..2025-03-31`: whole UTC days, both ends included. */
export function dayRange(value: string): { gte?: Date; lt?: Date } | string {
  const [from, to, ...rest] = value.includes("..") ? value.split("..") : [value, value];
  if (rest.length > 0 || from === undefined || to === undefined || (from === "" && to === "")) {
    return "must be a day (YYYY-MM-DD) or a range FROM..TO";
  }
  const day = (text: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text.startsWith("0000")) return null;
    const date = new Date(`${text}T00:00:00.000Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : date;
  };
  const start = from === "" ? undefined : day(from);
  const end = to === "" ? undefined : day(to);
  if (start === null || end === null) return "must be a day (YYYY-MM-DD) or a range FROM..TO";
  if (start && end && start > end) return "has a range that ends before it starts";
  return inclusiveDays(start, end);
}

/** The comma-separated ids of `value`, each a UUID or a global ID of `type` (docs/reference/graphql.md "Global IDs"). */
export function uuidsIn(value: string, type: NodeTypeName): string[] | string {
  const ids = alternatives(value)?.map((id) => {
    if (isUuid(id)) return id.toLowerCase();
    const globalId = decodeGlobalId(id);
    return globalId?.type === type ? globalId.uuid : null;
  });
  if (!ids?.every((id) => id !== null)) {
    return `must be one or more UUIDs or global IDs of a ${type}, comma separated`;
  }
  return ids;
}

/**
 * The comma-separated enum values of `value`, spelled as REST spells them
 * (`in_transit`, `Raw Material`) or as GraphQL does (`IN_TRANSIT`,
 * `RAW_MATERIAL`), in any case; answered as stored.
 */
export function enumValuesIn(stored: readonly string[], value: string): string[] | string {
  const byName = new Map<string, string>();
  for (const storedValue of stored) {
    byName.set(contractSpelling(storedValue).toLowerCase(), storedValue);
    byName.set(graphqlEnumName(contractSpelling(storedValue)).toLowerCase(), storedValue);
  }
  const names = alternatives(value);
  const values = names?.map((name) => byName.get(name.toLowerCase()));
  if (!values?.every((found) => found !== undefined)) {
    return `must be one or more of ${stored.map((storedValue) => contractSpelling(storedValue)).join(", ")}, comma separated`;
  }
  return values;
}

/** `key:` names of a grammar, for argument descriptions. */
export function grammarSummary(grammar: QueryGrammar): string {
  return Object.entries(grammar.keys)
    .map(([key, { description }]) => `\`${key}:\` ${description}`)
    .join("; ");
}

/**
 * Prisma hands `startsWith`/`contains` to LIKE as they are: `%` and `_` would
 * match anything. Escaped with LIKE's default escape character, they match
 * only themselves.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** `yes`/`no` (also `true`/`false`). */
export function yesNo(value: string): boolean | string {
  const lower = value.toLowerCase();
  if (lower === "yes" || lower === "true") return true;
  if (lower === "no" || lower === "false") return false;
  return "must be yes or no";
}
