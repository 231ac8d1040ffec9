import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../project-root.js";
import type { SqlConnection } from "./sql-connection.js";

export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 of the SQL, hex: what Prisma stores in `_prisma_migrations.checksum`. */
  checksum: string;
}

export const MIGRATIONS_DIR = path.join(projectRoot(), "prisma", "migrations");

/** The same lock key `prisma migrate deploy` takes, so both tools exclude each other. */
const PRISMA_MIGRATE_ADVISORY_LOCK = 72707369;

export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies pending migrations, each in its own transaction, under Prisma's
 * advisory lock, recording them in `_prisma_migrations` as Prisma does so
 * that `prisma migrate deploy` and `migrate status` agree with us.
 */
export async function applyMigrations(
  connection: SqlConnection,
  migrations: MigrationFile[] = readMigrations(),
): Promise<MigrationReport> {
  await connection.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_ADVISORY_LOCK]);
  try {
    await connection.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await connection.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
    );
    const finished = new Map<string, AppliedRow>();
    for (const row of rows) {
      if (row.rolled_back_at) continue;
      if (!row.finished_at) {
        throw new MigrationError(
          `Migration ${row.migration_name} started but did not finish; inspect the database, then resolve it`,
        );
      }
      finished.set(row.migration_name, row);
    }
    const applied: string[] = [];
    for (const migration of migrations) {
      const existing = finished.get(migration.name);
      if (existing) {
        if (existing.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was changed after it was applied`);
        }
        continue;
      }
      await connection.transaction(async (tx) => {
        const id = randomUUID();
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [id, migration.checksum, migration.name],
        );
        await tx.exec(migration.sql);
        await tx.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
      });
      applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await connection.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_ADVISORY_LOCK]);
  }
}

/** Applies pending migrations on a fresh connection of `database`. */
export async function migrateDatabase(database: {
  connect(): Promise<SqlConnection>;
}): Promise<MigrationReport> {
  const connection = await database.connect();
  try {
    return await applyMigrations(connection);
  } finally {
    await connection.release();
  }
}
