// One statement whose rows are handed over as PostgreSQL sends them: each
// row the array of its values' texts, in the select list's order (pg's
// `rowMode: "array"`, every column read by a parser that keeps its text).
// The compiled reads write JSON from these texts and need nothing else.
import type pg from "pg";

/** A row: each column's text, by position; null for SQL NULL. */
export type ArrayRow = readonly (string | null)[];

/** A row read by position: an `ArrayRow`, or an object whose columns are named "0", "1", …. */
export type PositionalRow = { readonly [position: number]: unknown };

/** Every column as its text: no value is converted, whatever its type. */
const TEXTS: pg.CustomTypesConfig = { getTypeParser: () => (text: unknown) => text };

/**
 * Runs `text` on a client of `pool`, named `name` when given (parsed once per
 * connection, as pg names statements), and answers its rows as arrays of
 * texts. As with any `pool.query`, a client whose query failed is not reused.
 */
export async function queryArrayRows(
  pool: pg.Pool,
  text: string,
  values: readonly (string | null)[],
  name: string | undefined,
): Promise<ArrayRow[]> {
  const result = await pool.query<(string | null)[]>({
    text,
    values: [...values],
    name,
    rowMode: "array",
    types: TEXTS,
  });
  return result.rows;
}
