// The SQL of one read as it is planned: the columns each place of a
// selection reads, the joins its to-one relations need, and lists built in
// the same statement as JSON arrays, so that one statement answers a
// document.
import type { ModelTable, RelationJoin, ScalarColumn } from "../../db/data-model.js";
import { conditionSql, orderSql } from "../conditions.js";
import type { RowPath } from "../read-metadata.js";
import { columnSql, quoted, type SqlWriter, type TableRef } from "./sql-writer.js";
import { PlanError, textOf } from "./writers.js";

/**
 * One FROM of the statement: the main one, or a list's subquery. Columns are
 * read by their position (named `"0"`, `"1"`, … in a select list), so that a
 * row of the statement and a row of a list built in SQL are both the array of
 * their texts.
 */
export class Scope {
  private readonly columns = new Map<string, number>();
  private readonly joins: string[] = [];
  private readonly joined = new Map<string, TableRef>();

  constructor(
    readonly sql: SqlWriter,
    readonly table: TableRef,
  ) {}

  /** The position of a column reading `expression`; the same expression is read once. */
  column(expression: string): number {
    const known = this.columns.get(expression);
    if (known !== undefined) return known;
    const key = this.columns.size;
    this.columns.set(expression, key);
    return key;
  }

  /** The position of a column already read as `expression`, if any. */
  keyOf(expression: string): number | undefined {
    return this.columns.get(expression);
  }

  /** The expression read at position `key`. */
  expressionAt(key: number): string {
    for (const [expression, known] of this.columns) if (known === key) return expression;
    throw new PlanError(`no column is read at ${key}`);
  }

  /** How many columns the select list reads: the position of a column selected after them. */
  get size(): number {
    return this.columns.size;
  }

  /** The table a to-one relation of `from` reaches, joined once (LEFT JOIN: a nullable relation may be absent). */
  join(from: TableRef, relation: RelationJoin): TableRef {
    const name = `${from.alias}.${relation.name}`;
    const known = this.joined.get(name);
    if (known) return known;
    const table: TableRef = { model: this.sql.model(relation.target), alias: this.sql.alias() };
    const on = relation.on
      .map(
        ({ from: own, to }) => `${quoted(table.alias)}.${quoted(to)} = ${quoted(from.alias)}.${quoted(own)}`,
      )
      .join(" AND ");
    this.joins.push(`LEFT JOIN ${quoted(table.model.table)} ${quoted(table.alias)} ON ${on}`);
    this.joined.set(name, table);
    return table;
  }

  /** `expr AS "0", …` */
  selectList(): string {
    return [...this.columns].map(([expression, key]) => `${expression} AS ${quoted(String(key))}`).join(", ");
  }

  /** `json_build_array(expr, …)`, each column at its position: one row of a list built in SQL. */
  jsonArray(): string {
    // Positions are given in order from 0, and the map keeps that order.
    return `json_build_array(${[...this.columns.keys()].join(", ")})`;
  }

  /** `"table" "alias" LEFT JOIN …` */
  from(): string {
    return [`${quoted(this.table.model.table)} ${quoted(this.table.alias)}`, ...this.joins].join(" ");
  }
}

/** Where a path of a row leads: a column's text, a joined row, or the rows of a list relation. */
export type PathValue =
  | { kind: "column"; column: ScalarColumn; key: number }
  | { kind: "row"; table: TableRef; relation: RelationJoin | null }
  | { kind: "rows"; scope: Scope; from: TableRef; relation: RelationJoin; args: RelationArgs };

/** What a field's Prisma `select` says of a relation: which of its rows, in which order. */
export interface RelationArgs {
  where?: object;
  orderBy?: unknown;
  take?: unknown;
  skip?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entry of `name` in a Prisma `select` (or `include`), when it is an object. */
function selectEntry(select: unknown, name: string): Record<string, unknown> | undefined {
  if (!isRecord(select)) return undefined;
  const entry = select[name];
  return isRecord(entry) ? entry : undefined;
}

/** `true` when the select takes the relation whole (`{ relation: true }`). */
function selectEntries(select: unknown, name: string): unknown {
  return isRecord(select) ? select[name] : undefined;
}

function nestedSelect(entry: Record<string, unknown> | undefined): unknown {
  return entry?.select ?? entry?.include;
}

function relationArgs(entry: Record<string, unknown> | undefined): RelationArgs {
  const where = entry?.where;
  if (where !== undefined && (typeof where !== "object" || where === null))
    throw new PlanError("its select narrows a list relation by what is not a where");
  return { where, orderBy: entry?.orderBy, take: entry?.take, skip: entry?.skip };
}

function fieldOf(model: ModelTable, name: string) {
  const field = model.fields.get(name);
  if (!field) throw new PlanError(`${model.name} has no field ${name} with a column`);
  return field;
}

/**
 * Follows `path` from a row of `table` in `scope`: joins to-one relations,
 * reads a list relation's row at an index in a subquery, and opens a list
 * relation's rows as a list scope. `select` is the Prisma select the field
 * declares, which says which rows of its list relations it takes.
 */
export function followPath(scope: Scope, table: TableRef, path: RowPath, select: unknown): PathValue {
  let current = table;
  let relation: RelationJoin | null = null;
  let currentSelect = select;
  for (let index = 0; index < path.length; index += 1) {
    const segment = path[index];
    if (typeof segment !== "string") throw new PlanError(`an index that follows no list relation`);
    const field = fieldOf(current.model, segment);
    const entry = selectEntry(currentSelect, segment);
    const last = index === path.length - 1;
    if (field.kind === "scalar") {
      if (!last) throw new PlanError(`${segment} is a column with more path after it`);
      return { kind: "column", column: field, key: scope.column(textOf(field, columnSql(current, field))) };
    }
    if (!field.isList) {
      current = scope.join(current, field);
      relation = field;
      currentSelect = nestedSelect(entry);
      continue;
    }
    // Which rows of a list relation a field reads, only its select says: without it, refuse rather than guess.
    if (!entry && selectEntries(currentSelect, segment) !== true)
      throw new PlanError(`its select does not load the list relation ${segment}`);
    const args = relationArgs(entry);
    if (last) {
      const list = new Scope(scope.sql, { model: scope.sql.model(field.target), alias: scope.sql.alias() });
      return { kind: "rows", scope: list, from: current, relation: field, args };
    }
    const position = path[index + 1];
    const rest = path.slice(index + 2);
    const [columnName] = rest;
    if (typeof position !== "number" || rest.length !== 1 || typeof columnName !== "string")
      throw new PlanError(`${segment}: a list relation is read whole, or at an index then one column`);
    return { kind: "column", ...rowAt(scope, current, field, args, position, columnName) };
  }
  return { kind: "row", table: current, relation };
}

/** The scalar subquery reading one column of the list relation's row at `position`. */
function rowAt(
  scope: Scope,
  from: TableRef,
  relation: RelationJoin,
  args: RelationArgs,
  position: number,
  columnName: string,
): { column: ScalarColumn; key: number } {
  const { sql } = scope;
  const table: TableRef = { model: sql.model(relation.target), alias: sql.alias() };
  const column = fieldOf(table.model, columnName);
  if (column.kind !== "scalar") throw new PlanError(`${columnName} is not a column`);
  const skip = args.skip ?? 0;
  const take = args.take;
  if (typeof skip !== "number" || (take !== undefined && typeof take !== "number"))
    throw new PlanError(`${relation.name}: take and skip must be numbers`);
  const conditions = [...joinConditions(from, relation, table), conditionSql(args.where, table, sql)];
  const order = orderSql(args.orderBy, table);
  // A position at or past `take` is a row the select does not load: null, as in the resolver.
  const subquery =
    take !== undefined && position >= take
      ? "NULL"
      : `(SELECT ${textOf(column, columnSql(table, column))} FROM ${quoted(table.model.table)} ${quoted(table.alias)} WHERE ${conditions.join(" AND ")}${order.length ? ` ORDER BY ${order.join(", ")}` : ""} LIMIT 1 OFFSET ${skip + position})`;
  return { column, key: scope.column(subquery) };
}

export function joinConditions(from: TableRef, relation: RelationJoin, to: TableRef): string[] {
  return relation.on.map(
    ({ from: own, to: theirs }) =>
      `${quoted(to.alias)}.${quoted(theirs)} = ${quoted(from.alias)}.${quoted(own)}`,
  );
}

/**
 * The column of a list built in SQL: the list relation's rows of `from` as
 * a JSON array of `list`'s rows, each the array of its columns, in the select's order (as text; null
 * when there are none).
 */
export function listColumn(scope: Scope, value: Extract<PathValue, { kind: "rows" }>): number {
  const { sql } = scope;
  const { scope: list, from, relation, args } = value;
  if (args.take !== undefined || args.skip !== undefined)
    throw new PlanError(`${relation.name}: a list read whole takes no take or skip`);
  const conditions = [
    ...joinConditions(from, relation, list.table),
    conditionSql(args.where, list.table, sql),
  ];
  const order = orderSql(args.orderBy, list.table);
  if (order.length === 0)
    throw new PlanError(`${relation.name}: a list needs an orderBy in its select to have an order`);
  return scope.column(
    `(SELECT json_agg(${list.jsonArray()} ORDER BY ${order.join(", ")}) FROM ${list.from()} WHERE ${conditions.join(" AND ")})::text`,
  );
}
