// What a field of a planned read's selection reads from the statement's
// rows, as its declaration says (read-metadata.ts `RowRead`), and the Prisma
// selections fields declare, read with a stand-in for the request.
import type { GraphQLField } from "graphql";
import type { NodeTypeName } from "../global-ids.js";
import type { ObjectProperty, RowPath, RowRead } from "../read-metadata.js";
import { prismaValueReader } from "./computed-writer.js";
import { type KeyedCounts, type KeyedList, keyedCounts, keyedList } from "./keyed-reads.js";
import { PLANNING_VIEWER } from "./request-arguments.js";
import { columnSql, type TableRef } from "./sql-writer.js";
import { followPath, type PathValue, type Scope } from "./statement.js";
import { PlanError, type TextSource, textOf } from "./writers.js";

const PLANNING_CONTEXT = { viewer: PLANNING_VIEWER };

export type ColumnValue = Extract<PathValue, { kind: "column" }>;

/** Columns of a row read in their own place: each falls back, when null, to a value of the parent's row. */
export type Fallbacks = ReadonlyMap<string, ColumnValue>;

/** What a field's value is read from. */
export type FieldValue =
  | Exclude<PathValue, { kind: "row" }>
  | (Extract<PathValue, { kind: "row" }> & { fallbacks?: Fallbacks })
  /** An object of `source`, null when a column at `presence` is null. */
  | { kind: "object"; source: Source; presence: readonly number[] }
  | { kind: "text"; parts: TextSource[] }
  | { kind: "globalId"; type: NodeTypeName; key: number }
  | { kind: "json"; key: number }
  | { kind: "differs"; key: number; from: string }
  | { kind: "keyedRows"; rows: KeyedList }
  | { kind: "counts"; counts: KeyedCounts }
  /** What a pure function computes of the columns' values, each read as Prisma reads it. */
  | {
      kind: "computed";
      columns: readonly { key: number; read: (text: string | null) => unknown }[];
      compute: (values: readonly unknown[]) => unknown;
    };

/** A place of a selection: a row of the statement, or an object a field made of a row's values. */
export type Source =
  | { kind: "row"; scope: Scope; table: TableRef; fallbacks?: Fallbacks }
  | {
      kind: "object";
      scope: Scope;
      table: TableRef;
      properties: Readonly<Record<string, ObjectProperty>>;
      select: unknown;
    }
  /** The counts of keyed rows, one row of their own: each property one of them. */
  | { kind: "counts"; scope: Scope; counts: KeyedCounts };

/** The value a field with its own resolver declares it reads, from `source`. */
export function rowReadValue(
  read: RowRead,
  field: GraphQLField<unknown, unknown>,
  source: Source,
): FieldValue {
  // On an object a field made of a row, a field can only hand that object on.
  if (source.kind !== "row") {
    if (source.kind === "object" && read.kind === "path" && read.path.length === 0)
      return { kind: "object", source, presence: [] };
    throw new PlanError("it reads a path of an object that is not a row");
  }
  const select = prismaSelectOf(field);
  const { scope, table, fallbacks } = source;
  const follow = (path: RowPath): PathValue => {
    const [name] = path;
    const fallen = path.length === 1 && typeof name === "string" ? fallbacks?.get(name) : undefined;
    return fallen ?? followPath(scope, table, path, select);
  };
  switch (read.kind) {
    case "object":
      return {
        kind: "object",
        source: { kind: "object", scope, table, properties: read.properties, select },
        presence: read.presentWhen.map((path) => {
          const value = follow(path);
          if (value.kind !== "column") throw new PlanError("its object is present by what is not a column");
          return value.key;
        }),
      };
    case "path": {
      const value = follow(read.path);
      const named = Object.entries(read.fallbacks ?? {});
      if (named.length === 0) return value;
      if (value.kind !== "row") throw new PlanError("it has fallbacks for the columns of what is not a row");
      const fallen = named.map(
        ([name, path]) => [name, fallenBack(scope, value.table, name, follow(path))] as const,
      );
      return { ...value, fallbacks: new Map(fallen) };
    }
    case "computed":
      return {
        kind: "computed",
        compute: read.compute,
        columns: read.paths.map((path) => {
          const value = follow(path);
          if (value.kind !== "column") throw new PlanError("it computes from what is not a column");
          return { key: value.key, read: prismaValueReader(value.column) };
        }),
      };
    case "globalId": {
      const id = follow(["id"]);
      if (id.kind !== "column") throw new PlanError("its row has no id column");
      return { kind: "globalId", type: read.type, key: id.key };
    }
    case "json": {
      const text = follow(read.path);
      if (text.kind !== "column" || text.column.type !== "String" || text.column.isList)
        throw new PlanError("its JSON is not held by a text column");
      return { kind: "json", key: text.key };
    }
    case "keyedRows":
      return { kind: "keyedRows", rows: keyedList(scope, table, read) };
    case "counts":
      return { kind: "counts", counts: keyedCounts(scope, table, read) };
    case "text":
      return {
        kind: "text",
        parts: read.parts.map((part): TextSource => {
          if (typeof part === "string") return { literal: part };
          if ("context" in part) return { context: part.context };
          const value = follow(part.path);
          if (value.kind !== "column" || value.column.type !== "String" || value.column.isList)
            throw new PlanError("a text part is not a column");
          return { key: value.key };
        }),
      };
  }
}

/** A column of a row read where it is: `COALESCE` of its own value and `fallback`, a column of the same type. */
function fallenBack(scope: Scope, table: TableRef, name: string, fallback: PathValue): ColumnValue {
  const column = table.model.fields.get(name);
  if (column?.kind !== "scalar" || column.isList) throw new PlanError(`its row has no column ${name}`);
  if (fallback.kind !== "column" || fallback.column.isList || fallback.column.type !== column.type)
    throw new PlanError(`${name} falls back to what is not a column of its type`);
  const own = textOf(column, columnSql(table, column));
  return {
    kind: "column",
    column,
    key: scope.column(`COALESCE(${own}, ${scope.expressionAt(fallback.key)})`),
  };
}

type SelectFunction = (
  args: object,
  context: object,
  nestedSelection: (selection: unknown) => unknown,
) => unknown;

function isSelectFunction(value: unknown): value is SelectFunction {
  return typeof value === "function";
}

/**
 * The Prisma selection a field declares (plugin-prisma's `select`), relation
 * by relation; a select written as a function is planned with a stand-in for
 * the viewer and for the field's own selection, and plugin-prisma hands its
 * result back as a query (`{ select }`).
 */
export function prismaSelectOf(field: GraphQLField<unknown, unknown>): unknown {
  const select = field.extensions.pothosPrismaSelect;
  if (!isSelectFunction(select)) return select;
  // A relation loaded with the field's own selection (`readsRow`): the statement joins it, and reads what its type's fields read.
  const query = select({}, PLANNING_CONTEXT, () => ({}));
  if (typeof query !== "object" || query === null) return query;
  const selected: unknown = "select" in query ? query.select : "include" in query ? query.include : undefined;
  return selected ?? query;
}

/**
 * The selection of a relation field (`t.relation`) with its own query (an
 * `orderBy`, …), as plugin-prisma's `select` writes it around the nested
 * selection it is given: here the query itself.
 */
export function relationSelectOf(field: GraphQLField<unknown, unknown>): unknown {
  const select = field.extensions.pothosPrismaSelect;
  if (!isSelectFunction(select)) return undefined;
  const query = select({}, PLANNING_CONTEXT, (nested) => nested);
  return typeof query === "object" && query !== null && "select" in query ? query.select : undefined;
}
