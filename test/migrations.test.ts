import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "../src/db/migrations.js";
import { diffMigrationsToSchema } from "../tools/schema-engine.js";
import { emptyDataFolder } from "./support/pglite-snapshot.js";
import { createTestDatabase, type TestDatabase } from "./support/test-database.js";

describe("migrations", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  // The schema engine (WebAssembly) replays every migration into a scratch database: seconds when quiet.
  it("bring an empty database exactly to schema.prisma (no drift)", { timeout: 180_000 }, async () => {
    const pending = await diffMigrationsToSchema(undefined, undefined, await emptyDataFolder());
    expect(pending, "run `npm run db:migration -- NAME` to capture the schema change").toBe("");
  });

  it("are recorded as Prisma records them and are not applied twice", async () => {
    const migrations = readMigrations();
    const connection = await database.connect();
    try {
      const rows = await connection.query<{
        migration_name: string;
        checksum: string;
        applied_steps_count: number;
      }>(
        `SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
      );
      expect(rows.map((row) => [row.migration_name, row.checksum, row.applied_steps_count])).toEqual(
        migrations.map((migration) => [migration.name, migration.checksum, 1]),
      );
      const again = await applyMigrations(connection, migrations);
      expect(again).toEqual({ applied: [], alreadyApplied: migrations.length });
    } finally {
      await connection.release();
    }
  });

  it("refuse to run when an applied migration was edited afterwards", async () => {
    const [first, ...rest] = readMigrations();
    if (!first) throw new Error("no migrations");
    const connection = await database.connect();
    try {
      await expect(
        applyMigrations(connection, [{ ...first, checksum: "0".repeat(64) }, ...rest]),
      ).rejects.toThrow(/changed after it was applied/);
    } finally {
      await connection.release();
    }
  });
});
