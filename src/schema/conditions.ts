// The conditions and orders the schema's reads are made of (which rows a
// viewer may see, a record's id, a page's cursors, a list filter's values),
// each declared once: a Prisma `where` (or `orderBy`) for normal execution
// and, registered with it, the planner's SQL for the same rows. The planner
// (src/schema/planner/) writes only what is declared here; a `where` made
// any other way is not planned.
import type { ScalarColumn } from "../db/data-model.js";
import { escapeLike, textMatch } from "./list-query.js";
import { columnSql, quoted, type SqlWriter, scalarColumn, type TableRef } from "./planner/sql-writer.js";

/** A condition's SQL on a table of the statement. */
type ConditionSql = (table: TableRef, sql: SqlWriter) => string;

// Kept by identity: Prisma reads the same object as a plain `where`.
const declaredSql = new WeakMap<object, ConditionSql>();

function declared<Where extends object>(where: Where, write: ConditionSql): Where {
  declaredSql.set(where, write);
  return where;
}

/** The SQL of a declared condition on `table`; no condition (undefined) keeps every row. */
export function conditionSql(condition: object | undefined, table: TableRef, sql: SqlWriter): string {
  if (condition === undefined) return "TRUE";
  const write = declaredSql.get(condition);
  if (!write) throw new Error("a where not declared in src/schema/conditions.ts");
  return write(table, sql);
}

/** `{ [field]: condition }` on a column, written as SQL by `write`. */
function onColumn(
  field: string,
  condition: unknown,
  write: (target: string, column: ScalarColumn, sql: SqlWriter) => string,
): object {
  return declared({ [field]: condition }, (table, sql) => {
    const column = scalarColumn(table, field);
    return write(columnSql(table, column), column, sql);
  });
}

const joined = (parts: string[], operator: "AND" | "OR") =>
  parts.length === 0
    ? operator === "AND"
      ? "TRUE"
      : "FALSE"
    : parts.length === 1
      ? (parts[0] ?? "TRUE")
      : `(${parts.join(` ${operator} `)})`;

/** No condition: every row. */
export function everyRow(): object {
  return declared({}, () => "TRUE");
}

/** Every one of `conditions` holds; none keeps every row. */
export function allOf(conditions: readonly object[]): object {
  return declared({ AND: [...conditions] }, (table, sql) =>
    joined(
      conditions.map((condition) => conditionSql(condition, table, sql)),
      "AND",
    ),
  );
}

/** One of `conditions` holds. */
export function anyOf(conditions: readonly object[]): object {
  if (conditions.length === 1 && conditions[0]) return conditions[0];
  return declared({ OR: [...conditions] }, (table, sql) =>
    joined(
      conditions.map((condition) => conditionSql(condition, table, sql)),
      "OR",
    ),
  );
}

/**
 * `field` holds one of `values`. One value is written as an equality: a
 * generic plan of `= ANY(array)` cannot read an index on the column and then
 * the sort key in order, which a list filtered by one value (a status) wants.
 */
export function isOneOf(field: string, values: readonly unknown[]): object {
  const [only] = values;
  return onColumn(field, { in: values }, (target, column, sql) =>
    values.length === 1
      ? `${target} = ${sql.bind(sql.valueText(column, only))}`
      : `${target} = ANY(${sql.bind(sql.arrayText(column, values))})`,
  );
}

/** `field` holds one of `values`, as one array whatever their number: one statement's text for any batch. */
function isInArray(field: string, values: readonly unknown[]): object {
  return onColumn(
    field,
    { in: values },
    (target, column, sql) => `${target} = ANY(${sql.bind(sql.arrayText(column, values))})`,
  );
}

/** `field` equals `value`; null when `value` is. */
export function isValue(field: string, value: unknown): object {
  return onColumn(field, value, (target, column, sql) =>
    value === null ? `${target} IS NULL` : `${target} = ${sql.bind(sql.valueText(column, value))}`,
  );
}

/** `field` is not null. */
export function isPresent(field: string): object {
  return onColumn(field, { not: null }, (target) => `${target} IS NOT NULL`);
}

/** The records of one id, or of any of a list of ids. */
export type RecordIds = string | readonly string[];

/** The record `ids` names, or those among a list of ids. */
export function hasId(ids: RecordIds): object {
  return typeof ids === "string" ? isValue("id", ids) : isInArray("id", ids);
}

/** `field` lies beyond `value`: above it (`gt`) or below it (`lt`). */
export function isBeyond(field: string, beyond: "gt" | "lt", value: unknown): object {
  return onColumn(
    field,
    { [beyond]: value },
    (target, column, sql) =>
      `${target} ${beyond === "gt" ? ">" : "<"} ${sql.bind(sql.valueText(column, value))}`,
  );
}

/** `field` within a range of times, either end open. */
export function inRange(field: string, range: { gte?: Date; lt?: Date }): object {
  return onColumn(field, range, (target, column, sql) =>
    joined(
      [
        ...(range.gte ? [`${target} >= ${sql.bind(sql.valueText(column, range.gte))}`] : []),
        ...(range.lt ? [`${target} < ${sql.bind(sql.valueText(column, range.lt))}`] : []),
      ],
      "AND",
    ),
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

/** Rows of the list relation `relation` exist (or none does), narrowed by `where`. */
export function related(relation: string, exists: boolean, where: object = everyRow()): object {
  return declared({ [relation]: exists ? { some: where } : { none: where } }, (table, sql) => {
    const join = table.model.fields.get(relation);
    if (join?.kind !== "relation") throw new Error(`${table.model.name} has no relation ${relation}`);
    const rows: TableRef = { model: sql.model(join.target), alias: sql.alias() };
    const on = join.on.map(
      ({ from, to }) => `${quoted(rows.alias)}.${quoted(to)} = ${quoted(table.alias)}.${quoted(from)}`,
    );
    const exist = `EXISTS (SELECT 1 FROM ${quoted(rows.model.table)} ${quoted(rows.alias)} WHERE ${[
      ...on,
      conditionSql(where, rows, sql),
    ].join(" AND ")})`;
    return exists ? exist : `NOT ${exist}`;
  });
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

// Orders.

type Direction = "asc" | "desc";

const declaredOrders = new WeakMap<object, (table: TableRef) => string[]>();

/** A Prisma `orderBy` by `columns` in turn, each ascending or descending, declared with its SQL. */
export function ordered(...columns: readonly (readonly [field: string, direction: Direction])[]): object[] {
  const orderBy = columns.map(([field, direction]) => ({ [field]: direction }));
  declaredOrders.set(orderBy, (table) =>
    columns.map(([field, direction]) => {
      // PostgreSQL's default places nulls as Prisma leaves them: last ascending, first descending.
      return `${columnSql(table, scalarColumn(table, field))} ${direction === "asc" ? "ASC" : "DESC"}`;
    }),
  );
  return orderBy;
}

/** The `ORDER BY` items of a declared order on `table`; none for no order (undefined). */
export function orderSql(orderBy: unknown, table: TableRef): string[] {
  if (orderBy === undefined) return [];
  const write = typeof orderBy === "object" && orderBy !== null ? declaredOrders.get(orderBy) : undefined;
  if (!write) throw new Error("an orderBy not declared in src/schema/conditions.ts");
  return write(table);
}
