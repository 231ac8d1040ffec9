import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** Plain SQL on one connection, for work Prisma cannot express (migrations, locks). */
export interface SqlConnection {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements. */
  exec(script: string): Promise<void>;
  /** Runs `work` inside one transaction on this connection. */
  transaction<T>(work: (tx: Omit<SqlConnection, "transaction" | "release">) => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

/** What runs statements inside a transaction: a connection's `query`. */
export type SqlQuery = Pick<SqlConnection, "query">;

/** Runs `work` in one transaction on a connection of its own, released after, whatever happens. */
export async function inOwnTransaction<Result>(
  database: { connect(): Promise<SqlConnection> },
  work: (tx: SqlQuery) => Promise<Result>,
): Promise<Result> {
  const connection = await database.connect();
  try {
    return await connection.transaction(work);
  } finally {
    await connection.release();
  }
}

export function pgliteConnection(db: PGlite): SqlConnection {
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      return (await db.query<Row>(text, params)).rows;
    },
    async exec(script) {
      await db.exec(script);
    },
    transaction(work) {
      return db.transaction((tx) =>
        work({
          query: async <Row>(text: string, params: unknown[] = []) =>
            (await tx.query<Row>(text, params)).rows,
          exec: async (script: string) => {
            await tx.exec(script);
          },
        }),
      );
    },
    // The PGlite instance belongs to the Database; it is closed there.
    async release() {},
  };
}

export async function postgresConnection(connectionString: string): Promise<SqlConnection> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const query = async <Row>(text: string, params: unknown[] = []): Promise<Row[]> =>
    (await client.query(text, params)).rows as Row[];
  const exec = async (script: string) => {
    await client.query(script);
  };
  return {
    query,
    exec,
    async transaction(work) {
      await client.query("BEGIN");
      try {
        const result = await work({ query, exec });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    async release() {
      await client.end();
    },
  };
}
