import { type Database, type DatabaseOptions, openDatabase } from "./database.js";
import type { DatabaseTarget } from "./database-url.js";
import { migrateDatabase } from "./migrations.js";

/**
 * Opens the database and, on the embedded one (or when asked), applies pending
 * migrations. On PostgreSQL migrations are an operator's step by default, so
 * that many processes starting at once do not all try.
 */
export async function openDatabaseForUse(
  target: DatabaseTarget,
  { migrateOnStart, ...options }: DatabaseOptions & { migrateOnStart: boolean },
): Promise<Database> {
  const database = await openDatabase(target, options);
  if (target.kind === "pglite" || migrateOnStart) {
    try {
      await migrateDatabase(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
