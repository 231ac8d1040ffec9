// One statement whose rows are handed over as PostgreSQL sends them: each
// row the array of its values' texts, in the select list's order (pg's
// `rowMode: "array"`, every column read by a parser that keeps its text).
// The planned reads write JSON from these texts and need nothing else.
import type pg from "pg";

/**
 * A row: each column's text, by position; null for SQL NULL. The one shape
 * the planned reads read, whichever way the statement went (pg, or Prisma
 * on PGlite and inside a transaction: `arrayRowsOf`).
 */
export type ArrayRow = readonly (string | null)[];

/**
 * Rows a Prisma raw query answered, each an object whose columns are named by
 * position ("0", "1", …), as `ArrayRow`s. An object's integer keys come in
 * ascending order, so its values are its columns in the select list's order.
 * A value that is not text is refused: a planned read selects every column as text.
 */
export function arrayRowsOf(rows: readonly Record<string, unknown>[]): ArrayRow[] {
  return rows.map((row) => {
    const values = Object.values(row);
    for (const value of values)
      if (value !== null && typeof value !== "string")
        throw new TypeError(`a column of a positional select is ${typeof value}, not text`);
    return values as (string | null)[];
  });
}

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
