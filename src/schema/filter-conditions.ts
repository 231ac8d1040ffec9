// The conditions list filters mean (src/schema/list-filters.ts): each a
// Prisma `where` and, registered with it, the planner's SQL for the same rows.
import type { ScalarColumn } from "../db/data-model.js";
import { escapeLike, textMatch } from "./list-query.js";
import {
  columnSql,
  declaredCondition,
  existsSql,
  type SqlWriter,
  scalarColumn,
  whereSql,
} from "./planner/prisma-sql.js";

/** `{ [field]: condition }` on a column, written as SQL by `write`. */
function onColumn(
  field: string,
  condition: unknown,
  write: (target: string, column: ScalarColumn, sql: SqlWriter) => string,
): object {
  return declaredCondition({ [field]: condition }, (table, sql) => {
    const column = scalarColumn(table, field);
    return write(columnSql(table, column), column, sql);
  });
}

const allOf = (parts: string[]) =>
  parts.length === 0 ? "TRUE" : parts.length === 1 ? (parts[0] ?? "TRUE") : `(${parts.join(" AND ")})`;

/** `field` holds one of `values`. */
export function isOneOf(field: string, values: readonly unknown[]): object {
  return onColumn(
    field,
    { in: values },
    (target, column, sql) => `${target} = ANY(${sql.bind(sql.arrayText(column, values))})`,
  );
}

/** `field` equals `value`. */
export function isValue(field: string, value: unknown): object {
  return onColumn(
    field,
    value,
    (target, column, sql) => `${target} = ${sql.bind(sql.valueText(column, value))}`,
  );
}

/** `field` within a range of times, either end open. */
export function inRange(field: string, range: { gte?: Date; lt?: Date }): object {
  return onColumn(field, range, (target, column, sql) =>
    allOf([
      ...(range.gte ? [`${target} >= ${sql.bind(sql.valueText(column, range.gte))}`] : []),
      ...(range.lt ? [`${target} < ${sql.bind(sql.valueText(column, range.lt))}`] : []),
    ]),
  );
}

/** How a text column matches: exactly, by a prefix or containing a part, the latter two in any case. */
type TextCondition = { equals: string } | { startsWith: string } | { contains: string };

/** `field` matches `condition`; a prefix or part is taken literally (LIKE's `%` and `_` escaped). */
export function textCondition(field: string, condition: TextCondition): object {
  if ("equals" in condition) return isValue(field, condition.equals);
  const prefix = "startsWith" in condition;
  const text = escapeLike(prefix ? condition.startsWith : condition.contains);
  return onColumn(
    field,
    prefix ? { startsWith: text, mode: "insensitive" } : { contains: text, mode: "insensitive" },
    (target, _column, sql) => `${target} ILIKE ${sql.bind(prefix ? `${text}%` : `%${text}%`)}`,
  );
}

/** One of `conditions` holds. */
export function anyOf(conditions: object[]): object {
  if (conditions.length === 1 && conditions[0]) return conditions[0];
  return declaredCondition(
    { OR: conditions },
    (table, sql) => `(${conditions.map((condition) => whereSql(condition, table, sql)).join(" OR ")})`,
  );
}

/** Rows of the list relation `relation` exist (or none does), narrowed by `where`. */
export function related(relation: string, exists: boolean, where: object = {}): object {
  return declaredCondition(
    { [relation]: exists ? { some: where } : { none: where } },
    (table, sql) => `${exists ? "" : "NOT "}${existsSql(relation, where, table, sql)}`,
  );
}

/** One of `columns` matching `text`: a prefix (any case) when it ends in `*`, else exactly. */
export function textMatches(columns: readonly string[], text: string): object | string {
  const match = textMatch(text);
  if (typeof match === "string") return match;
  return anyOf(columns.map((column) => textCondition(column, match)));
}

/** A bare word of `query`: `column` contains it, in any case (a trigram index serves it). */
export function containsWord(column: string): (word: string) => object | string {
  return (word) => {
    const text = word.endsWith("*") ? word.slice(0, -1) : word;
    if (text.includes("*")) return "may use * only at the end";
    return textCondition(column, { contains: text });
  };
}
