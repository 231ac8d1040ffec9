// Keyed rows (read-metadata.ts `KeyedRows`) planned in their parent's
// statement: rows naming the parent by columns no relation joins, read for
// every parent row at once by a correlated subquery of its row, as a JSON
// array: the rows a relation of theirs reaches, or their counts.
import type { ScalarColumn } from "../../db/data-model.js";
import { conditionSql, isValue, orderSql } from "../conditions.js";
import type { KeyedRows, RowRead } from "../read-metadata.js";
import { PLANNING_VIEWER } from "./request-arguments.js";
import { columnSql, type TableRef } from "./sql-writer.js";
import { Scope } from "./statement.js";
import { PlanError } from "./writers.js";

/** The keyed rows' table in a scope of their own, and what makes them the rows of `parent`'s row for the viewer. */
function keyedScope(scope: Scope, parent: TableRef, rows: KeyedRows): { list: Scope; conditions: string } {
  const { sql } = scope;
  const list = new Scope(sql, { model: sql.model(rows.model), alias: sql.alias() });
  const own = (table: TableRef, name: string) => {
    const field = table.model.fields.get(name);
    if (field?.kind !== "scalar" || field.isList)
      throw new PlanError(`${table.model.name}.${name} is not a column a keyed row is named by`);
    return columnSql(table, field);
  };
  const conditions = [
    ...Object.entries(rows.key).map(
      ([column, property]) => `${own(list.table, column)} = ${own(parent, property)}`,
    ),
    conditionSql(rows.where(PLANNING_VIEWER), list.table, sql),
  ];
  return { list, conditions: conditions.join(" AND ") };
}

/** The rows keyed rows reach, each written from `item` in `list`; `column()`, once they are, the parent's column holding them. */
export interface KeyedList {
  list: Scope;
  item: TableRef;
  column(): string;
}

export function keyedList(
  scope: Scope,
  parent: TableRef,
  read: Extract<RowRead, { kind: "keyedRows" }>,
): KeyedList {
  const { list, conditions } = keyedScope(scope, parent, read.rows);
  const through = list.table.model.fields.get(read.through);
  if (through?.kind !== "relation" || through.isList || !through.isRequired)
    throw new PlanError(`${read.rows.model}.${read.through} is not a required to-one relation`);
  const item = list.join(list.table, through);
  const order = orderSql(read.orderBy, item).join(", ");
  return {
    list,
    item,
    column: () =>
      `(SELECT json_agg(${list.jsonArray()} ORDER BY ${order}) FROM ${list.from()} WHERE ${conditions})::text`,
  };
}

/** A count's text, answered as an Int. */
const countColumn = (name: string): ScalarColumn => ({
  kind: "scalar",
  name,
  column: name,
  type: "Int",
  isEnum: false,
  isList: false,
  isRequired: true,
});

/**
 * Counts of keyed rows: `count(property)` reads one of them in `scope` (one
 * aggregate row: every count is there, zero for no rows); `column()`, once
 * the counts are read, the parent's column holding that row.
 */
export interface KeyedCounts {
  scope: Scope;
  count(property: string): { column: ScalarColumn; key: number } | undefined;
  column(): string;
}

export function keyedCounts(
  scope: Scope,
  parent: TableRef,
  read: Extract<RowRead, { kind: "counts" }>,
): KeyedCounts {
  const { list, conditions } = keyedScope(scope, parent, read.rows);
  const by = list.table.model.fields.get(read.by);
  if (by?.kind !== "scalar" || by.isList)
    throw new PlanError(`${read.rows.model}.${read.by} is not a column`);
  const expressions = new Map<string, string>();
  const expressionOf = (property: string): string | undefined => {
    if (property === read.total) return "count(*)::text";
    if (!Object.hasOwn(read.counted, property)) return undefined;
    const known = expressions.get(property);
    if (known !== undefined) return known;
    const matching = conditionSql(isValue(read.by, read.counted[property]), list.table, scope.sql);
    const expression = `(count(*) FILTER (WHERE ${matching}))::text`;
    expressions.set(property, expression);
    return expression;
  };
  return {
    scope: list,
    count: (property) => {
      const expression = expressionOf(property);
      return expression === undefined
        ? undefined
        : { column: countColumn(property), key: list.column(expression) };
    },
    column: () => `(SELECT ${list.jsonArray()} FROM ${list.from()} WHERE ${conditions})::text`,
  };
}
