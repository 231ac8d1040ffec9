// Opening in-memory PGlite runs initdb, and a test database then runs every
// migration: the bulk of opening one, paid by nearly every test file. The
// suite's global set-up does both once and saves the data folder, empty and
// migrated; each test database starts from a copy instead. A test of a child
// process (the CLI, a server) gets a copy of a migrated folder on disk.
import { cpSync, openAsBlob } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type Database, type DatabaseOptions, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { CONFIGURED_POOL } from "./database-pool.js";

/** Names the folder holding the saved data folders; set by the global set-up for the test processes. */
const SNAPSHOTS_ENV = "TEST_PGLITE_SNAPSHOTS";
const EMPTY = "empty.tar";
const MIGRATED = "migrated.tar";
const MIGRATED_FOLDER = "migrated";

/** Saves the empty and the migrated data folder; returns what removes them. Run once, before the test processes start. */
export async function saveSnapshots(): Promise<() => Promise<void>> {
  // Each project of the test configuration runs the global set-up; the first saves.
  if (process.env[SNAPSHOTS_ENV]) return async () => {};
  const folder = await mkdtemp(path.join(tmpdir(), "bpa-pglite-snapshots-"));
  const database = await openDatabase(parseDatabaseUrl("pglite:memory"), CONFIGURED_POOL);
  const dump = async (file: string) => {
    if (!database.dumpDataDir) throw new Error("a PGlite database can dump its data folder");
    await writeFile(path.join(folder, file), await (await database.dumpDataDir()).bytes());
  };
  try {
    await dump(EMPTY);
    await migrateDatabase(database);
    await dump(MIGRATED);
  } finally {
    await database.close();
  }
  // The migrated data folder written out on disk, for child processes to open.
  const onDisk = await PGlite.create(path.join(folder, MIGRATED_FOLDER), {
    extensions: { pg_trgm },
    loadDataDir: await openAsBlob(path.join(folder, MIGRATED)),
  });
  await onDisk.close();
  process.env[SNAPSHOTS_ENV] = folder;
  return () => rm(folder, { recursive: true, force: true });
}

/**
 * A new in-memory PGlite database, from the saved copy when the global
 * set-up made one (outside the test runner it starts from initdb), migrated
 * unless `migrated` is false. Migrations always run: on a copy they find
 * nothing to do, as on a database an earlier start migrated.
 */
export async function openPgliteDatabase(options: DatabaseOptions, migrated: boolean): Promise<Database> {
  const folder = process.env[SNAPSHOTS_ENV];
  const snapshot = folder ? await openAsBlob(path.join(folder, migrated ? MIGRATED : EMPTY)) : null;
  const database = await openDatabase(
    parseDatabaseUrl("pglite:memory"),
    snapshot ? { ...options, startFrom: snapshot } : options,
  );
  if (migrated) await migrateDatabase(database);
  return database;
}

/** The saved empty data folder (initdb's), when the global set-up made one. */
export async function emptyDataFolder(): Promise<Blob | undefined> {
  const folder = process.env[SNAPSHOTS_ENV];
  return folder ? openAsBlob(path.join(folder, EMPTY)) : undefined;
}

/**
 * A DATABASE_URL for a new PGlite folder at `dataDir`, migrated as a first
 * start would leave it: a copy of the saved one when the global set-up made
 * it, else an empty folder that the first process to open it migrates.
 */
export function migratedPgliteUrl(dataDir: string): string {
  const folder = process.env[SNAPSHOTS_ENV];
  if (folder) cpSync(path.join(folder, MIGRATED_FOLDER), dataDir, { recursive: true });
  return `pglite:${dataDir}`;
}
