import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, type DatabaseOptions, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { CONFIGURED_POOL } from "./database-pool.js";
import { openPgliteDatabase } from "./pglite-snapshot.js";

/**
 * Whether the tests run on PostgreSQL: what needs several processes on one
 * database, or PostgreSQL's own behaviour, runs only then (PGlite belongs to one process).
 */
export const onPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");

export interface TestDatabase extends Database {
  /** A DATABASE_URL for child processes that should see the same data (PostgreSQL only). */
  readonly url: string;
}

/**
 * One migrated database per test file: in-memory PGlite by default, or a new
 * PostgreSQL database (dropped on close) when DATABASE_URL names a server, so
 * test files can run in parallel without sharing rows. `migrated: false`
 * leaves it empty, for tests of a migration.
 */
export async function createTestDatabase(
  options: Partial<DatabaseOptions> = {},
  { migrated = true }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const opened: DatabaseOptions = { ...CONFIGURED_POOL, ...options };
  const base = process.env.DATABASE_URL;
  const target = parseDatabaseUrl(base ?? "pglite:memory");
  if (target.kind === "pglite") {
    return Object.assign(await openPgliteDatabase(opened, migrated), { url: "pglite:memory" });
  }
  const name = `bpa_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: target.connectionString });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(target.connectionString);
  url.pathname = `/${name}`;
  const database = await openDatabase(parseDatabaseUrl(url.toString()), opened);
  if (migrated) await migrateDatabase(database);
  const close = database.close.bind(database);
  return Object.assign(database, {
    url: url.toString(),
    async close() {
      await close();
      const cleanup = new pg.Client({ connectionString: target.connectionString });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  });
}
