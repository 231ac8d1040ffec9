// Prisma's `where` and `orderBy` in SQL. A list filter's condition
// (src/schema/list-filters.ts) comes with its own SQL, registered with its
// `where` by `declaredCondition`, and is written by it. Beside those, the
// translator knows the plumbing the schema's lists and records use: AND/OR,
// equality, `in`, ranges, `not: null` and a relation's `some`. Anything
// else throws `UntranslatableError`, and the request runs normally. Every
// value becomes a bound parameter: no value is ever written into SQL text.
import type { DataModel, ModelTable, RelationJoin, ScalarColumn } from "../../db/data-model.js";

/** A condition or order the translator does not know: the read runs on normal execution instead. */
export class UntranslatableError extends Error {
  override readonly name = "UntranslatableError";
}

/** `"name"`: identifiers come from the data model, never from a request. */
export function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A table of the statement: its model and alias. */
export interface TableRef {
  model: ModelTable;
  alias: string;
}

export function columnSql(table: TableRef, column: ScalarColumn): string {
  return `${quoted(table.alias)}.${quoted(column.column)}`;
}

/**
 * What a statement's SQL is written with: its parameters, fresh table aliases,
 * and how enum values are stored. Parameters are sent untyped: PostgreSQL
 * infers each from the column it meets, on PGlite (through Prisma) and
 * PostgreSQL (through pg) alike, which take arrays only as array literals.
 */
export class SqlWriter {
  readonly values: (string | null)[] = [];
  /** The tables of the models this writer's SQL reads. */
  readonly tables = new Set<string>();
  private aliases: number;

  constructor(
    readonly dataModel: DataModel,
    /** The database's label of an enum value as Prisma spells it. */
    private readonly enumLabel: (value: string) => string,
    /** What was written before, in the same statement: its parameters and aliases, numbered on from there. */
    before?: SqlWriter,
  ) {
    this.offset = before ? before.offset + before.values.length : 0;
    this.aliases = before?.aliases ?? 0;
  }

  private readonly offset: number;

  bind(value: string | null): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }

  alias(): string {
    const alias = `t${this.aliases}`;
    this.aliases += 1;
    return alias;
  }

  model(name: string): ModelTable {
    const model = this.dataModel.get(name);
    if (!model) throw new UntranslatableError(`no table for the model ${name}`);
    this.tables.add(model.table);
    return model;
  }

  /** A value of `column` as its parameter text. */
  valueText(column: ScalarColumn, value: unknown): string {
    if (column.isEnum && typeof value === "string") return this.enumLabel(value);
    if (value instanceof Date) return timestampText(value);
    switch (typeof value) {
      case "string":
        return value;
      case "number":
      case "bigint":
        return String(value);
      case "boolean":
        return value ? "true" : "false";
      default:
        if (isDecimal(value)) return value.toFixed();
        throw new UntranslatableError(`a value of ${column.name} that is not a scalar`);
    }
  }

  /** A PostgreSQL array literal of values of `column`, as one parameter. */
  arrayText(column: ScalarColumn, values: unknown): string {
    if (!Array.isArray(values)) throw new UntranslatableError(`${column.name}: a list was expected`);
    const items = values.map((value) => `"${this.valueText(column, value).replace(/["\\]/g, "\\$&")}"`);
    return `{${items.join(",")}}`;
  }
}

/** A time as PostgreSQL reads it: ISO 8601, with a year past 9999 (the day after the last day a filter takes) unsigned. */
function timestampText(time: Date): string {
  const text = time.toISOString();
  if (text.startsWith("+")) return text.slice(1).replace(/^0+(?=\d{5})/, "");
  if (text.startsWith("-")) throw new UntranslatableError("a time before the year 1");
  return text;
}

function isDecimal(value: unknown): value is { toFixed(): string } {
  return (
    typeof value === "object" && value !== null && "toFixed" in value && typeof value.toFixed === "function"
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !isDecimal(value)
  );
}

const join = (parts: string[], operator: "AND" | "OR", empty: string) =>
  parts.length === 0 ? empty : parts.length === 1 ? (parts[0] ?? empty) : `(${parts.join(` ${operator} `)})`;

/** A condition written by its own SQL on a table of the statement. */
export type ConditionSql = (table: TableRef, sql: SqlWriter) => string;

// Declared conditions are kept by identity: Prisma reads the same object as a plain `where`.
const declaredSql = new WeakMap<object, ConditionSql>();

/** `where`, whose SQL is `write`: the translator writes it by that, not by reading `where`. */
export function declaredCondition<Where extends object>(where: Where, write: ConditionSql): Where {
  declaredSql.set(where, write);
  return where;
}

/** The column of `table` named `name`. */
export function scalarColumn(table: TableRef, name: string): ScalarColumn {
  const field = table.model.fields.get(name);
  if (field?.kind !== "scalar" || field.isList)
    throw new UntranslatableError(`${table.model.name} has no column ${name}`);
  return field;
}

/** The SQL condition of a Prisma `where` on `table`. */
export function whereSql(where: unknown, table: TableRef, sql: SqlWriter): string {
  if (!isPlainObject(where)) throw new UntranslatableError("a where that is not an object");
  const declared = declaredSql.get(where);
  if (declared) return declared(table, sql);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (key === "AND" || key === "OR") {
      const items = Array.isArray(value) ? value : [value];
      parts.push(
        join(
          items.map((item) => whereSql(item, table, sql)),
          key,
          key === "AND" ? "TRUE" : "FALSE",
        ),
      );
    } else {
      const field = table.model.fields.get(key);
      if (!field) throw new UntranslatableError(`${table.model.name} has no field ${key}`);
      parts.push(
        field.kind === "scalar" ? scalarSql(field, value, table, sql) : relationSql(field, value, table, sql),
      );
    }
  }
  return join(parts, "AND", "TRUE");
}

const COMPARISONS: Record<string, string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

function scalarSql(column: ScalarColumn, condition: unknown, table: TableRef, sql: SqlWriter): string {
  const target = columnSql(table, column);
  if (column.isList) throw new UntranslatableError(`a condition on the list ${column.name}`);
  if (condition === null) return `${target} IS NULL`;
  if (!isPlainObject(condition)) return `${target} = ${sql.bind(sql.valueText(column, condition))}`;
  const parts: string[] = [];
  for (const [operator, value] of Object.entries(condition)) {
    if (value === undefined) continue;
    const comparison = COMPARISONS[operator];
    if (operator === "equals" && value !== null)
      parts.push(`${target} = ${sql.bind(sql.valueText(column, value))}`);
    else if (operator === "in") parts.push(`${target} = ANY(${sql.bind(sql.arrayText(column, value))})`);
    else if (comparison) parts.push(`${target} ${comparison} ${sql.bind(sql.valueText(column, value))}`);
    else if (operator === "not" && value === null) parts.push(`${target} IS NOT NULL`);
    else throw new UntranslatableError(`the condition ${operator} on ${column.name}`);
  }
  return join(parts, "AND", "TRUE");
}

/** `EXISTS (…)` over the rows of the relation `name` of `table`, joined to it, narrowed by `where`. */
export function existsSql(name: string, where: object, table: TableRef, sql: SqlWriter): string {
  const relation = table.model.fields.get(name);
  if (relation?.kind !== "relation")
    throw new UntranslatableError(`${table.model.name} has no relation ${name}`);
  return relatedRowsSql(relation, where, table, sql);
}

function relatedRowsSql(relation: RelationJoin, where: unknown, table: TableRef, sql: SqlWriter): string {
  const related: TableRef = { model: sql.model(relation.target), alias: sql.alias() };
  const joined = relation.on.map(
    ({ from, to }) => `${quoted(related.alias)}.${quoted(to)} = ${quoted(table.alias)}.${quoted(from)}`,
  );
  return `EXISTS (SELECT 1 FROM ${quoted(related.model.table)} ${quoted(related.alias)} WHERE ${[
    ...joined,
    whereSql(where ?? {}, related, sql),
  ].join(" AND ")})`;
}

function relationSql(relation: RelationJoin, condition: unknown, table: TableRef, sql: SqlWriter): string {
  if (!isPlainObject(condition)) throw new UntranslatableError(`a condition on ${relation.name}`);
  const parts: string[] = [];
  for (const [operator, value] of Object.entries(condition)) {
    if (value === undefined) continue;
    if (relation.isList && operator === "some") parts.push(relatedRowsSql(relation, value, table, sql));
    else throw new UntranslatableError(`the condition ${operator} on ${relation.name}`);
  }
  return join(parts, "AND", "TRUE");
}

/** `ORDER BY` items of a Prisma `orderBy` on `table` (scalar fields, `asc`/`desc`). */
export function orderBySql(orderBy: unknown, table: TableRef): string[] {
  const items = Array.isArray(orderBy) ? orderBy : orderBy === undefined ? [] : [orderBy];
  return items.flatMap((item) => {
    if (!isPlainObject(item)) throw new UntranslatableError("an orderBy that is not an object");
    return Object.entries(item).map(([name, direction]) => {
      const column = table.model.fields.get(name);
      if (column?.kind !== "scalar" || (direction !== "asc" && direction !== "desc"))
        throw new UntranslatableError(`the order ${name}`);
      // PostgreSQL's default places nulls as Prisma leaves them: last ascending, first descending.
      return `${columnSql(table, column)} ${direction === "asc" ? "ASC" : "DESC"}`;
    });
  });
}
