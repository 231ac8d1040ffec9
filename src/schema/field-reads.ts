// A field that reads its parent's row states once what it reads, as data: the
// value at a path, an object of paths, a text of parts, the row's global ID,
// a value a pure function computes from columns.
// From that one statement come the Prisma `select` and the resolver of normal
// execution and the read the planned reads plan as SQL (src/schema/planner/),
// as a grafast field's plan is both what runs and what is planned. A field
// spreads `...readsPath(…)` (or another `reads…`) into its options and writes
// no `select`, `resolve` or `extensions` of its own; test/graphql/field-reads.test.ts
// holds every field to that.
import { parseExactJson } from "../domain/webhook-events.js";
import type { GraphQLContext } from "./context.js";
import { encodeGlobalId, type NodeTypeName } from "./global-ids.js";
import { keyColumns, keyedRowsLoader } from "./keyed-rows.js";
import {
  type KeyedRows,
  type ObjectProperty,
  type RowPath,
  type RowRead,
  rowReadExtension,
  type TextPart,
} from "./read-metadata.js";

/** Which rows of a list relation a path goes through, in Prisma's words; the `where` may be made from the request's context. */
export interface ListRows {
  relation: string;
  where?: object | ((context: GraphQLContext) => object);
  orderBy?: object;
  take?: number;
  /** The columns each row loads, when the path ends at the list: its rows are the field's value. */
  columns?: readonly string[];
}

/** A step into a row: a column or a to-one relation by name, a list relation's rows, or a position among them. */
export type ReadStep = string | number | ListRows;

/** The rows of the list relation `relation` that a path takes, as `args` narrow and order them. */
export function rows(relation: string, args: Omit<ListRows, "relation"> = {}): ListRows {
  return { relation, ...args };
}

/** A Prisma selection, or a relation's query in one (`{ select, where, … }`), as plain data. */
type Selection = Record<string, unknown>;

/** What a declaration gives a field: its `select`, its resolver and the planner's read. */
export interface ReadOptions {
  /**
   * Typed `never`: Pothos types a `select` by the parent's model, which a
   * declaration made at run time cannot name; the schema test checks each
   * declared path against the model instead.
   */
  select?: never;
  /** Returns what the declaration reads; typed `never` for the same reason, and checked by the same test. */
  resolve: (parent: unknown, args: unknown, context: GraphQLContext) => never;
  extensions: { rowRead: RowRead };
}

const optionsOfRead = new WeakMap<RowRead, ReadOptions>();

/** The options a declaration gave its field, to tell them from hand-written ones. */
export function readOptionsOf(read: RowRead): ReadOptions | undefined {
  return optionsOfRead.get(read);
}

/** The field's value is the value at `path` of its parent's row; null where a step finds nothing. */
export function readsPath(...path: ReadStep[]): ReadOptions {
  const read: RowRead = { kind: "path", path: path.map((step) => (isListRows(step) ? step.relation : step)) };
  return declare(read, [path], (row) => valueAt(row, path));
}

/**
 * The field's value is the row its parent's to-one relations `relations`
 * lead to, loaded with the field's own selection (plugin-prisma's
 * `nestedSelection`), so that its type's fields load with the parent's row.
 */
export function readsRow(...relations: [string, ...string[]]): ReadOptions {
  return readsRowWithFallbacks(relations, {});
}

/**
 * As `readsRow`, where each column of the row that `fallbacks` names, when
 * null, is the value at its path of the parent's row instead.
 */
export function readsRowWithFallbacks(
  relations: readonly [string, ...string[]],
  fallbacks: Readonly<Record<string, RowPath>>,
): ReadOptions {
  const read: RowRead = { kind: "path", path: relations, fallbacks };
  const fallbackPaths = Object.values(fallbacks);
  // plugin-prisma calls a function `select` with the field's arguments, the context and its `nestedSelection`.
  const select = (_args: unknown, _context: unknown, fieldSelection: (selection: true) => unknown) => {
    const selection: Selection = {};
    let place = selection;
    relations.forEach((relation, index) => {
      if (index === relations.length - 1) place[relation] = fieldSelection(true);
      else place = nestedSelection(place, relation);
    });
    for (const path of fallbackPaths) addPath(selection, path, undefined);
    return selection;
  };
  const options: ReadOptions = {
    select: select as never,
    resolve: (row) => withFallbacks(valueAt(row, relations), row, fallbacks) as never,
    extensions: rowReadExtension(read),
  };
  optionsOfRead.set(read, options);
  return options;
}

/** `value` with each column `fallbacks` names that is null taken from its path of `row`. */
function withFallbacks(value: unknown, row: unknown, fallbacks: Readonly<Record<string, RowPath>>): unknown {
  if (!isSelection(value)) return value;
  const fallen = Object.entries(fallbacks).filter(([column]) => value[column] === null);
  if (fallen.length === 0) return value;
  return { ...value, ...Object.fromEntries(fallen.map(([column, path]) => [column, valueAt(row, path)])) };
}

/**
 * The field's value is `compute` of the values at `paths` of its parent's
 * row (each a column), in their order: a pure function of them, which the
 * planned reads call on the same values read from their rows. `Values` are
 * the columns' types as Prisma reads them, which a declaration made at run
 * time cannot name (as with `select`): test/graphql/field-reads.test.ts
 * checks that each path is a column, and the planned reads' tests compare
 * both answers.
 */
export function readsComputed<const Values extends readonly unknown[]>(
  paths: { readonly [Index in keyof Values]: RowPath },
  compute: (...values: Values) => unknown,
): ReadOptions {
  const computeOf = compute as (...values: readonly unknown[]) => unknown;
  const computeFrom = (values: readonly unknown[]) => computeOf(...values);
  const read: RowRead = { kind: "computed", paths, compute: computeFrom };
  return declare(read, paths, (row) => computeFrom(paths.map((path) => valueAt(row, path))));
}

/**
 * The field's value is an object of these properties of its parent's row, or
 * null when the value at one of `presentWhen` is null.
 */
export function readsObject(
  properties: Record<string, ObjectProperty>,
  presentWhen: readonly RowPath[] = [],
): ReadOptions {
  const read: RowRead = { kind: "object", properties, presentWhen };
  const paths = [...Object.values(properties).map(propertyPath), ...presentWhen];
  return declare(read, paths, (row) => {
    if (presentWhen.some((path) => valueAt(row, path) === null)) return null;
    return Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        isRowPath(property) ? valueAt(row, property) : valueAt(row, property.differs) !== property.from,
      ]),
    );
  });
}

/** The field's value is a text joined from literal parts, context values and row values; null when a row value is. */
export function readsText(...parts: TextPart[]): ReadOptions {
  const read: RowRead = { kind: "text", parts };
  const paths = parts.flatMap((part) => (typeof part === "object" && "path" in part ? [part.path] : []));
  return declare(read, paths, (row, context) => {
    let text = "";
    for (const part of parts) {
      if (typeof part === "string") text += part;
      else if ("context" in part) text += context[part.context];
      else {
        const value = valueAt(row, part.path);
        if (typeof value !== "string") return null;
        text += value;
      }
    }
    return text;
  });
}

/** The field's value is the JSON value the text at `path` holds, written back with every digit of its numbers. */
export function readsJson(...path: string[]): ReadOptions {
  return declare({ kind: "json", path }, [path], (row) => {
    const text = valueAt(row, path);
    return typeof text === "string" ? parseExactJson(text) : null;
  });
}

/** The field's value is the global ID of its parent's row, a record of `type`. */
export function readsGlobalId(type: NodeTypeName): ReadOptions {
  return declare({ kind: "globalId", type }, [["id"]], (row) => {
    const id = valueAt(row, ["id"]);
    return typeof id === "string" ? encodeGlobalId(type, id) : null;
  });
}

/**
 * The field's value is the rows the keyed rows reach by their to-one relation
 * `through` (a tagging's tag), in `orderBy`: an order of
 * src/schema/conditions.ts (`ordered`) on `through`'s model.
 */
export function readsKeyedRows(rows: KeyedRows, through: string, orderBy: readonly object[]): ReadOptions {
  const load = keyedRowsLoader(rows, (delegate, where) =>
    delegate.findMany({
      where,
      select: { ...keyColumns(rows), [through]: true },
      orderBy: orderBy.map((order) => ({ [through]: order })),
    }),
  );
  return declare({ kind: "keyedRows", rows, through, orderBy }, keyPaths(rows), async (row, context) =>
    (await load(row, context)).map((keyed) => keyed[through]),
  );
}

/**
 * The field's value is an object of counts of the keyed rows: each property
 * of `counted` counts the rows whose column `by` holds its value (zero for
 * none), and `total` counts them all.
 */
export function readsCounts(
  rows: KeyedRows,
  by: string,
  counted: Readonly<Record<string, string>>,
  total: string,
): ReadOptions {
  const load = keyedRowsLoader(rows, (delegate, where) =>
    delegate.groupBy({ by: [...Object.keys(keyColumns(rows)), by], where, _count: { _all: true } }),
  );
  const propertyOf = new Map(Object.entries(counted).map(([property, value]) => [value, property]));
  return declare({ kind: "counts", rows, by, counted, total }, keyPaths(rows), async (row, context) => {
    const counts: Record<string, number> = { [total]: 0 };
    for (const property of Object.keys(counted)) counts[property] = 0;
    for (const group of await load(row, context)) {
      const count = valueAt(group, ["_count", "_all"]);
      const property = propertyOf.get(String(group[by]));
      if (typeof count !== "number") continue;
      if (property !== undefined) counts[property] = (counts[property] ?? 0) + count;
      counts[total] = (counts[total] ?? 0) + count;
    }
    return counts;
  });
}

/** The parent's properties the keyed rows name it by, as the paths its `select` loads. */
function keyPaths(rows: KeyedRows): ReadStep[][] {
  return Object.values(rows.key).map((property) => [property]);
}

function declare(
  read: RowRead,
  paths: readonly (readonly ReadStep[])[],
  value: (row: unknown, context: GraphQLContext) => unknown,
): ReadOptions {
  const options: ReadOptions = {
    ...selectOption(paths),
    // The field's GraphQL type says what `value` returns; the planned reads' tests write both and compare.
    resolve: (row, _args, context) => value(row, context) as never,
    extensions: rowReadExtension(read),
  };
  optionsOfRead.set(read, options);
  return options;
}

/** The `select` loading `paths`: none when they read only the parent itself, a function when a `where` needs the context. */
function selectOption(paths: readonly (readonly ReadStep[])[]): Pick<ReadOptions, "select"> {
  const read = paths.filter((path) => path.length > 0);
  if (read.length === 0) return {};
  const selectFor = (context: GraphQLContext | undefined) => {
    const selection: Selection = {};
    for (const path of read) addPath(selection, path, context);
    return selection;
  };
  const needsContext = read.some((path) => path.some((step) => isListRows(step) && isFunction(step.where)));
  // plugin-prisma calls a function `select` with the field's arguments and the request's context.
  const select = needsContext
    ? (_args: unknown, context: GraphQLContext) => selectFor(context)
    : selectFor(undefined);
  return { select: select as never };
}

/** Adds the selection of `path` to `selection`, merged with what other paths of the same field select. */
function addPath(selection: Selection, path: readonly ReadStep[], context: GraphQLContext | undefined): void {
  const [step, ...rest] = path;
  if (step === undefined) return;
  if (typeof step === "number") throw new Error("a position in a read path follows no list relation");
  if (typeof step === "string") {
    if (rest.length === 0) {
      if (selection[step] === undefined) selection[step] = true;
      return;
    }
    addPath(nestedSelection(selection, step), rest, context);
    return;
  }
  const { relation, where, orderBy, take, columns } = step;
  const query = relationQuery(selection, relation);
  const args = {
    ...(where === undefined ? {} : { where: isFunction(where) ? where(contextFor(context)) : where }),
    ...(orderBy === undefined ? {} : { orderBy }),
    ...(take === undefined ? {} : { take }),
  };
  Object.assign(query, args);
  const [position, ...afterPosition] = rest;
  const inRow = typeof position === "number" ? afterPosition : rest;
  if (inRow.length > 0) addPath(nestedSelection(selection, relation), inRow, context);
  else for (const column of columns ?? []) nestedSelection(selection, relation)[column] = true;
}

/** The query of `relation` in `selection` (`{ select, where, … }`), made when absent. */
function relationQuery(selection: Selection, relation: string): Selection {
  const entry = selection[relation];
  if (isSelection(entry)) return entry;
  const query: Selection = {};
  selection[relation] = query;
  return query;
}

/** The `select` beneath `relation` in `selection`, made when absent. */
function nestedSelection(selection: Selection, relation: string): Selection {
  const query = relationQuery(selection, relation);
  const nested = query.select;
  if (isSelection(nested)) return nested;
  const made: Selection = {};
  query.select = made;
  return made;
}

function contextFor(context: GraphQLContext | undefined): GraphQLContext {
  if (!context) throw new Error("a list's where made from the context, in a select without one");
  return context;
}

/** The value at `path` of `row`: null where a step finds nothing. */
function valueAt(row: unknown, path: readonly ReadStep[]): unknown {
  let value = row;
  for (const step of path) {
    if (typeof value !== "object" || value === null) return null;
    const key = isListRows(step) ? step.relation : step;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value ?? null;
}

function propertyPath(property: ObjectProperty): RowPath {
  return isRowPath(property) ? property : property.differs;
}

const isSelection = (value: unknown): value is Selection =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isRowPath = (property: ObjectProperty): property is RowPath => Array.isArray(property);

const isListRows = (step: ReadStep): step is ListRows => typeof step === "object";

const isFunction = (value: unknown): value is (context: GraphQLContext) => object =>
  typeof value === "function";
