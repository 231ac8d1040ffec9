// Products auto-match created before the catalogue_privacy migration copied
// the creating buyer's name and code. The migration recognises them, points
// them at that buyer product and clears the copied text; curated products
// keep theirs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.js";
import { applyMigrations, readMigrations } from "../../src/db/migrations.js";
import { createTestDatabase } from "../support/test-database.js";

const MIGRATION = "catalogue_privacy";

describe(`the ${MIGRATION} migration`, () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase({}, { migrated: false });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
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
