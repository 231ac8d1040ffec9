// One statement whose rows are handed over as node-postgres's parser reads
// them: each row the array of its values' texts, in the select list's order.
// A pg Submittable (the interface pg-cursor is built on), so that a page of
// rows makes no query, result or row objects of its own: the compiled reads
// write JSON from these texts and need nothing else.
import type pg from "pg";

/** A row: each column's text, by position; null for SQL NULL. */
export type ArrayRow = readonly (string | null)[];

/** A row read by position: an `ArrayRow`, or an object whose columns are named "0", "1", …. */
export type PositionalRow = { readonly [position: number]: unknown };

/**
 * What pg keeps on a connection about named statements, as its own Query
 * reads and writes it; a connection without it gets unnamed statements.
 */
interface NamedStatements {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

const hasStatementRecords = (connection: object): connection is NamedStatements =>
  "parsedStatements" in connection && "submittedNamedStatements" in connection;

class ArrayRowsQuery implements pg.Submittable {
  private readonly rows: ArrayRow[] = [];
  readonly result: Promise<ArrayRow[]>;
  private settle!: { resolve: (rows: ArrayRow[]) => void; reject: (error: unknown) => void };

  constructor(
    // The client reads `name` and `text` when PostgreSQL has parsed the statement, and marks it parsed.
    readonly text: string,
    private readonly values: readonly (string | null)[],
    readonly name: string | undefined,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: pg.Connection): void {
    const records = hasStatementRecords(connection) ? connection : null;
    const name = records ? this.name : undefined;
    const parsed =
      name !== undefined &&
      records !== null &&
      (records.parsedStatements[name] !== undefined || records.submittedNamedStatements[name] !== undefined);
    const corked = "cork" in connection.stream && typeof connection.stream.cork === "function";
    if (corked) connection.stream.cork();
    try {
      if (!parsed) {
        connection.parse({ text: this.text, name: name ?? "", types: [] }, false);
        if (name !== undefined && records) records.submittedNamedStatements[name] = this.text;
      }
      connection.bind({ statement: name ?? "", values: [...this.values] }, false);
      connection.execute({ portal: "" }, false);
      connection.sync();
    } finally {
      if (corked) connection.stream.uncork();
    }
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows.push(message.fields);
  }

  handleReadyForQuery(): void {
    this.settle.resolve(this.rows);
  }

  // After an error the client lets go of the query before PostgreSQL is ready again.
  handleError(error: unknown): void {
    this.settle.reject(error);
  }

  // No Describe is sent, so no row description comes; the rest ends in ReadyForQuery.
  handleRowDescription(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleParseComplete(): void {}
  handleBindComplete(): void {}
}

/**
 * Runs `text` on a client of `pool`, named `name` when given (parsed once per
 * connection, as pg names statements), and answers its rows as arrays of
 * texts. As `pool.query` does, a client whose query failed is not reused.
 */
export async function queryArrayRows(
  pool: pg.Pool,
  text: string,
  values: readonly (string | null)[],
  name: string | undefined,
): Promise<ArrayRow[]> {
  const client = await pool.connect();
  let failure: Error | undefined;
  // A checked-out client reports a broken connection here; its query then fails as well.
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on("error", onError);
  try {
    const query = new ArrayRowsQuery(text, values, name);
    client.query(query);
    return await query.result;
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener("error", onError);
    client.release(failure);
  }
}
