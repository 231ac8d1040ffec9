// Products auto-match created before the catalogue_privacy migration copied
// the creating buyer's name and code. The migration recognises them, points
// them at that buyer product and clears the copied text; curated products
// keep theirs.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { applyMigrations, readMigrations } from "../../src/db/migrations.js";

const MIGRATION = "catalogue_privacy";

/** An empty database (no migrations), dropped by the returned cleanup on PostgreSQL. */
async function emptyDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const target = parseDatabaseUrl(process.env.DATABASE_URL ?? "pglite:memory");
  if (target.kind === "pglite") {
    return { database: await openDatabase(parseDatabaseUrl("pglite:memory")), drop: async () => {} };
  }
  const name = `bpa_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: target.connectionString });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(target.connectionString);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase(parseDatabaseUrl(url.toString())),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

describe(`the ${MIGRATION} migration`, () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await emptyDatabase());
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("takes the copied text out of auto-created products and leaves curated ones alone", async () => {
    const migrations = readMigrations();
    const index = migrations.findIndex((migration) => migration.name.endsWith(`_${MIGRATION}`));
    expect(index).toBeGreaterThan(0);
    const connection = await database.connect();
    try {
      await applyMigrations(connection, migrations.slice(0, index));
      await connection.exec(`
        INSERT INTO buyers (id, name) VALUES ('00000000-0000-4000-8000-0000000000b1', 'Legacy buyer');
        INSERT INTO products (id, name, normalized_name, code, normalized_code, synonyms, normalized_synonyms, product_type, created_at)
        VALUES
          ('00000000-0000-4000-8000-0000000000a1', 'Project Falcon Blend', 'project falcon blend', 'ACME-1', 'acme-1', '{}', '{}', 'Raw Material', '2025-01-01T00:00:00.000Z'),
          ('00000000-0000-4000-8000-0000000000a2', 'Glycerin', 'glycerin', 'GLY', 'gly', '{Glycerol}', '{glycerol}', 'Raw Material', '2025-01-01T00:00:00.000Z'),
          ('00000000-0000-4000-8000-0000000000a3', 'Purified Water', 'purified water', NULL, NULL, '{}', '{}', 'Other', '2025-01-01T00:00:00.000Z');
        INSERT INTO buyer_products (id, buyer_id, product_id, raw_material_name, raw_material_code, measurement_unit, product_type, created_at)
        VALUES
          ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', 'Project Falcon Blend', 'ACME-1', 'kg', 'Raw Material', '2025-01-01T00:00:00.004Z'),
          ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a2', 'Glycerin', 'GLY', 'kg', 'Raw Material', '2025-01-01T00:00:00.004Z'),
          ('00000000-0000-4000-8000-0000000000c3', '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a3', 'Aqua', NULL, 'L', 'Other', '2025-01-01T00:00:00.004Z');
      `);
      expect(await applyMigrations(connection, migrations)).toMatchObject({
        applied: migrations.slice(index).map((migration) => migration.name),
      });
      const rows = await connection.query<Record<string, unknown>>(
        `SELECT id::text, name, code, normalized_code, normalized_name, origin_buyer_product_id::text AS origin
         FROM products ORDER BY id`,
      );
      expect(rows).toEqual([
        {
          id: "00000000-0000-4000-8000-0000000000a1",
          name: null,
          code: null,
          normalized_code: null,
          normalized_name: "project falcon blend",
          origin: "00000000-0000-4000-8000-0000000000c1",
        },
        {
          id: "00000000-0000-4000-8000-0000000000a2",
          name: "Glycerin",
          code: "GLY",
          normalized_code: "gly",
          normalized_name: "glycerin",
          origin: null,
        },
        {
          id: "00000000-0000-4000-8000-0000000000a3",
          name: "Purified Water",
          code: null,
          normalized_code: null,
          normalized_name: "purified water",
          origin: null,
        },
      ]);
    } finally {
      await connection.release();
    }
  }, 120_000);
});
