// Batched upserts: one statement per chunk of rows, the rows sent as a single
// JSON parameter and unpacked by json_to_recordset. One parameter per statement
// keeps clear of PostgreSQL's 65535-parameter limit at any chunk size, and
// JSON keeps decimals exact (a JSON number is read as NUMERIC from its text).
import type { SqlQuery } from "./sql-connection.js";

export type Row = Record<string, unknown>;

export interface UpsertSpec {
  table: string;
  /** Columns written from each row, with their SQL types; timestamps excluded. */
  columns: readonly (readonly [name: string, type: string])[];
  /** The unique key that decides between insert and update. */
  conflict: readonly string[];
  /** Columns an update may change; by default every column outside `conflict`. */
  updatable?: readonly string[];
  /** Timestamp columns a row may give; absent ones default to now() on insert. */
  timestamps: readonly ("created_at" | "updated_at")[];
}

export interface UpsertCount {
  inserted: number;
  updated: number;
  unchanged: number;
}

export const CHUNK_SIZE = 2000;

function quote(name: string): string {
  return `"${name}"`;
}

/**
 * The statement for rows that give exactly the timestamps in `given`. A stored
 * row is only updated when a value differs, so importing the same file again
 * changes nothing, not even updated_at; a created_at the file does not give is
 * kept as stored.
 */
function upsertSql(spec: UpsertSpec, given: readonly string[]): string {
  const conflict = new Set(spec.conflict);
  const defaulted = spec.timestamps.filter((column) => !given.includes(column));
  const recordset = [
    ...spec.columns.map(([name, type]) => `${quote(name)} ${type}`),
    ...given.map((c) => `${quote(c)} timestamptz`),
  ];
  const inserted = [...spec.columns.map(([name]) => name), ...given, ...defaulted];
  const selected = [
    ...spec.columns.map(([name]) => `s.${quote(name)}`),
    ...given.map((column) => `s.${quote(column)}`),
    ...defaulted.map(() => "now()"),
  ];
  const updatable =
    spec.updatable ?? spec.columns.map(([name]) => name).filter((name) => !conflict.has(name));
  const compared = [...updatable, ...given];
  const assignments = compared.map((name) => `${quote(name)} = excluded.${quote(name)}`);
  if (spec.timestamps.includes("updated_at") && !given.includes("updated_at")) {
    assignments.push(`"updated_at" = now()`);
  }
  const onConflict =
    compared.length === 0
      ? "DO NOTHING"
      : `DO UPDATE SET ${assignments.join(", ")}
         WHERE (${compared.map((name) => `t.${quote(name)}`).join(", ")})
           IS DISTINCT FROM (${compared.map((name) => `excluded.${quote(name)}`).join(", ")})`;
  return `WITH written AS (
    INSERT INTO ${quote(spec.table)} AS t (${inserted.map(quote).join(", ")})
    SELECT ${selected.join(", ")}
      FROM json_to_recordset($1::json) AS s(${recordset.join(", ")})
    ON CONFLICT (${spec.conflict.map(quote).join(", ")}) ${onConflict}
    RETURNING (t.xmax = 0) AS inserted
  )
  SELECT (count(*) FILTER (WHERE inserted))::int AS inserted,
         (count(*) FILTER (WHERE NOT inserted))::int AS updated
    FROM written`;
}

/** Upserts `rows` in chunks; `onChunk` hears how many rows each chunk held. */
export async function upsertRows(
  sql: SqlQuery,
  spec: UpsertSpec,
  rows: readonly Row[],
  onChunk: (rows: number) => void = () => {},
): Promise<UpsertCount> {
  const total: UpsertCount = { inserted: 0, updated: 0, unchanged: 0 };
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const given = spec.timestamps.filter((column) => row[column] !== null && row[column] !== undefined);
    const key = given.join(",");
    let group = groups.get(key);
    if (!group) {
      group = [];
      groups.set(key, group);
    }
    group.push(row);
  }
  for (const [key, group] of groups) {
    const given = key === "" ? [] : key.split(",");
    const text = upsertSql(spec, given);
    // Only the written columns are sent: records also carry nested lists (and a
    // buyer its plaintext API keys), which must not reach the server.
    const fields = [...spec.columns.map(([name]) => name), ...given];
    for (let start = 0; start < group.length; start += CHUNK_SIZE) {
      const chunk = group.slice(start, start + CHUNK_SIZE);
      const [counts] = await sql.query<{ inserted: number; updated: number }>(text, [
        JSON.stringify(chunk, fields),
      ]);
      const inserted = counts?.inserted ?? 0;
      const updated = counts?.updated ?? 0;
      total.inserted += inserted;
      total.updated += updated;
      total.unchanged += chunk.length - inserted - updated;
      onChunk(chunk.length);
    }
  }
  return total;
}

/**
 * The child table is scanned once per statement (its statistics are stale
 * while the import fills it, so PostgreSQL picks a hash join), hence few
 * statements with many parents; each parent is a few dozen bytes of JSON.
 */
const DELETE_CHUNK_SIZE = 50_000;

/**
 * Deletes the child rows at positions a parent no longer has, so that a list
 * in the file replaces the stored list (the positions it keeps are upserted).
 */
export async function deleteChildrenBeyond(
  sql: SqlQuery,
  spec: { table: string; parent: string },
  lengths: readonly { id: string; length: number }[],
): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < lengths.length; start += DELETE_CHUNK_SIZE) {
    const [row] = await sql.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM ${quote(spec.table)} AS c
          USING json_to_recordset($1::json) AS s(id uuid, length int)
          WHERE c.${quote(spec.parent)} = s.id AND c."position" >= s.length
         RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [JSON.stringify(lengths.slice(start, start + DELETE_CHUNK_SIZE))],
    );
    deleted += row?.deleted ?? 0;
  }
  return deleted;
}
