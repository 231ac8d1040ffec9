// Normal execution's reads of keyed rows (read-metadata.ts `KeyedRows`):
// rows that name their parent by columns no relation joins, loaded for the
// parents of one request's list together, in one statement per field. The
// planned reads write the same declaration as a subquery of the parent's row
// (src/schema/planner/keyed-reads.ts).
import { batchLoad } from "./batch.js";
import { type GraphQLContext, modelDelegate } from "./context.js";
import type { KeyedRows } from "./read-metadata.js";
import { requireViewer } from "./require-viewer.js";

type Row = Record<string, unknown>;

/** What keyed reads ask of a Prisma model delegate. */
export interface KeyedDelegate {
  findMany(query: object): Promise<Row[]>;
  groupBy(query: object): Promise<Row[]>;
}

/** What names a parent, or a row's parent: its key's values, as one text; null when one is absent. */
function keyText(values: readonly unknown[]): string | null {
  return values.every((value) => typeof value === "string") ? JSON.stringify(values) : null;
}

const propertyOf = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, name) : undefined;

let loaders = 0;

/**
 * A reader of `rows` for a field: it batches the parents of a request's
 * list, runs `query` (a `findMany` or `groupBy` of the model, given the
 * condition of all of them, which selects the key's columns) once for them,
 * and gives each parent its own rows, in the statement's order.
 */
export function keyedRowsLoader(
  rows: KeyedRows,
  query: (delegate: KeyedDelegate, where: object) => Promise<Row[]>,
): (parent: unknown, context: GraphQLContext) => Promise<Row[]> {
  const columns = Object.keys(rows.key);
  const parentProperties = Object.values(rows.key);
  loaders += 1;
  // Names the batch: one statement per field and list of parents.
  const batch = `keyed rows ${loaders}`;
  return async (parent, context) => {
    const id = keyText(parentProperties.map((property) => propertyOf(parent, property)));
    if (id === null) return [];
    const loaded = await batchLoad(context, batch, id, async (ids) => {
      const keys = ids.map((text) => JSON.parse(text) as string[]);
      const where = {
        AND: [
          rows.where(requireViewer(context)),
          // Each column among its parents' values; a row of another combination is no parent's.
          ...columns.map((column, index) => ({
            [column]: { in: [...new Set(keys.map((key) => key[index]))] },
          })),
        ],
      };
      const grouped = new Map<string, Row[]>();
      for (const row of await query(modelDelegate<KeyedDelegate>(context, rows.model), where)) {
        const rowKey = keyText(columns.map((column) => row[column]));
        if (rowKey === null) continue;
        const group = grouped.get(rowKey);
        if (group) group.push(row);
        else grouped.set(rowKey, [row]);
      }
      return grouped;
    });
    return loaded ?? [];
  };
}

/** The key's columns as a Prisma `select` (or `by`). */
export function keyColumns(rows: KeyedRows): Record<string, true> {
  return Object.fromEntries(Object.keys(rows.key).map((column) => [column, true]));
}
