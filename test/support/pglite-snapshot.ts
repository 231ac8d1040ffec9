// Opening in-memory PGlite runs initdb, and a test database then runs every
// migration: the bulk of opening one, paid by nearly every test file. The
// suite's global set-up does both once and saves the data folder, empty and
// migrated; each test database starts from a copy instead.
import { openAsBlob } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { type Database, type DatabaseOptions, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";

/** Names the folder holding the saved data folders; set by the global set-up for the test processes. */
const SNAPSHOTS_ENV = "TEST_PGLITE_SNAPSHOTS";
const EMPTY = "empty.tar";
const MIGRATED = "migrated.tar";

/**
 * `openDatabase` on in-memory PGlite, with `extra` added to the options it
 * gives `PGlite.create`, so that the database is the app's own in every other
 * respect. It relies on `openDatabase` calling `PGlite.create` before its
 * first await; `pglite` is null if it no longer does (`extra` was then not applied).
 */
async function openPgliteWith(
  extra: PGliteOptions,
  options: DatabaseOptions,
): Promise<{ database: Database; pglite: PGlite | null }> {
  const original = PGlite.create;
  const create = original.bind(PGlite);
  let created: Promise<PGlite> | null = null;
  const createWithExtra = (dataDir?: string, given?: PGliteOptions) => {
    created = create(dataDir, { ...given, ...extra });
    return created;
  };
  let opening: Promise<Database>;
  Object.defineProperty(PGlite, "create", { value: createWithExtra, configurable: true, writable: true });
  try {
    opening = openDatabase(parseDatabaseUrl("pglite:memory"), options);
  } finally {
    Object.defineProperty(PGlite, "create", { value: original, configurable: true, writable: true });
  }
  const database = await opening;
  return { database, pglite: created === null ? null : await created };
}

/** Saves the empty and the migrated data folder; returns what removes them. Run once, before the test processes start. */
export async function saveSnapshots(): Promise<() => Promise<void>> {
  // Each project of the test configuration runs the global set-up; the first saves.
  if (process.env[SNAPSHOTS_ENV]) return async () => {};
  const folder = await mkdtemp(path.join(tmpdir(), "bpa-pglite-snapshots-"));
  const { database, pglite } = await openPgliteWith({}, {});
  try {
    if (!pglite)
      throw new Error("openDatabase no longer opens PGlite at once; test databases cannot start from a copy");
    await writeFile(path.join(folder, EMPTY), await (await pglite.dumpDataDir("none")).bytes());
    await migrateDatabase(database);
    await writeFile(path.join(folder, MIGRATED), await (await pglite.dumpDataDir("none")).bytes());
  } finally {
    await database.close();
  }
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
  const { database } = snapshot
    ? await openPgliteWith({ loadDataDir: snapshot }, options)
    : { database: await openDatabase(parseDatabaseUrl("pglite:memory"), options) };
  if (migrated) await migrateDatabase(database);
  return database;
}
