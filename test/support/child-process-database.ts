// A database that child processes (the CLI, a server) open by URL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { CONFIGURED_POOL } from "./database-pool.js";
import { migratedPgliteUrl } from "./pglite-snapshot.js";
import { createTestDatabase, onPostgres } from "./test-database.js";

/** A database that child processes open by URL, made for one `describe` (`databaseForChildProcesses`). */
export interface ChildProcessDatabase {
  /** Its DATABASE_URL; set once the `describe`'s `beforeAll` has run. */
  readonly url: string;
  /** A folder of the `describe`'s own, removed after its tests, for files they write. */
  readonly workDir: string;
  /** Opens it in this process, migrated, for `work`, and closes it after: a child process may open it next. */
  use<T>(work: (database: Database) => Promise<T>): Promise<T>;
}

/**
 * A database made before a `describe`'s tests and removed after them, that
 * child processes can open: a database of its own on PostgreSQL, or else a
 * migrated PGlite folder (a child process cannot see an in-memory PGlite,
 * and only one process at a time may hold the folder).
 */
export function databaseForChildProcesses(folderPrefix: string): ChildProcessDatabase {
  let cleanup = async () => {};
  const made = {
    url: "",
    workDir: "",
    async use<T>(work: (database: Database) => Promise<T>): Promise<T> {
      const database = await openDatabase(parseDatabaseUrl(made.url), CONFIGURED_POOL);
      try {
        await migrateDatabase(database);
        return await work(database);
      } finally {
        await database.close();
      }
    },
  };
  beforeAll(async () => {
    made.workDir = mkdtempSync(path.join(tmpdir(), folderPrefix));
    if (onPostgres) {
      const database = await createTestDatabase();
      made.url = database.url;
      cleanup = () => database.close();
    } else {
      made.url = migratedPgliteUrl(path.join(made.workDir, "pglite"));
    }
  });
  afterAll(async () => {
    await cleanup();
    rmSync(made.workDir, { recursive: true, force: true });
  });
  return made;
}
