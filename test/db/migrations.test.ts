// The migrations and the database they make. They bring an empty database
// exactly to schema.prisma and refuse one edited after it was applied; the
// tables behind the models (src/db/data-model.ts), as the planned reads write
// SQL with them, are the migrated database's (after a Prisma upgrade this says
// whether the names `prisma generate` writes still come through,
// docs/design/contributing.md). Migrations that rewrite stored data keep what
// it meant: each is applied to a database holding data written before it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readDataModel } from "../../src/db/data-model.js";
import type { Database } from "../../src/db/database.js";
import { applyMigrations, readMigrations } from "../../src/db/migrations.js";
import { parseExactJson } from "../../src/domain/webhook-events.js";
import { diffMigrationsToSchema } from "../../tools/schema-engine.js";
import { emptyDataFolder } from "../support/pglite-snapshot.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

/**
 * Applies the migrations before the one named `…_name` to an empty database,
 * writes `data` into the tables they made, applies the rest, and reads what
 * that migration made of the data with `read`.
 */
async function migrateAcross<Row>(
  database: Database,
  name: string,
  data: string,
  read: string,
): Promise<Row[]> {
  const migrations = readMigrations();
  const index = migrations.findIndex((migration) => migration.name.endsWith(`_${name}`));
  expect(index).toBeGreaterThan(0);
  const connection = await database.connect();
  try {
    await applyMigrations(connection, migrations.slice(0, index));
    await connection.exec(data);
    expect(await applyMigrations(connection, migrations)).toMatchObject({
      applied: migrations.slice(index).map((migration) => migration.name),
    });
    return await connection.query<Row>(read);
  } finally {
    await connection.release();
  }
}

describe("the migrated database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  describe("migrations", () => {
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

  describe("the data model the planned reads write SQL with", () => {
    /** `table.column` of every column of the migrated database. */
    let columns: Set<string>;

    beforeAll(async () => {
      const connection = await database.connect();
      try {
        const rows = await connection.query<{ name: string }>(
          `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
           WHERE table_schema = current_schema()`,
        );
        columns = new Set(rows.map((row) => row.name));
      } finally {
        await connection.release();
      }
    });

    const dataModel = readDataModel();

    it("names, for every scalar field of every model, a column of its table", () => {
      const missing: string[] = [];
      let fields = 0;
      for (const model of dataModel.values())
        for (const field of model.fields.values()) {
          if (field.kind !== "scalar") continue;
          fields += 1;
          if (!columns.has(`${model.table}.${field.column}`))
            missing.push(`${model.name}.${field.name} → ${model.table}.${field.column}`);
        }
      expect(fields).toBeGreaterThan(100);
      expect(missing, "fields whose column the database does not have").toEqual([]);
    });

    it("joins each relation on columns both tables have", () => {
      const missing: string[] = [];
      for (const model of dataModel.values())
        for (const field of model.fields.values()) {
          if (field.kind !== "relation") continue;
          const target = dataModel.get(field.target);
          for (const { from, to } of field.on) {
            if (!columns.has(`${model.table}.${from}`)) missing.push(`${model.name}.${field.name}: ${from}`);
            if (!target || !columns.has(`${target.table}.${to}`))
              missing.push(`${model.name}.${field.name} → ${field.target}: ${to}`);
          }
        }
      expect(missing, "relations joining on a column the database does not have").toEqual([]);
    });

    it("reads the names the schema maps, not the fields' own", () => {
      const order = dataModel.get("Order");
      expect(order?.table).toBe("orders");
      expect(order?.fields.get("placedAt")).toMatchObject({ kind: "scalar", column: "placed_at" });
      expect(order?.fields.get("supplier")).toMatchObject({
        kind: "relation",
        target: "Supplier",
        on: [{ from: "supplier_id", to: "id" }],
      });
    });
  });
});

describe("migrations that rewrite stored data", () => {
  // Each test migrates an empty database of its own, up to its migration and past it.
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase({}, { migrated: false });
  }, 60_000);
  afterEach(async () => {
    await database?.close();
  });

  describe("the catalogue_privacy migration", () => {
    it("takes the copied text out of auto-created products and leaves curated ones alone", async () => {
      const rows = await migrateAcross<Record<string, unknown>>(
        database,
        "catalogue_privacy",
        `
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
        `,
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
    }, 120_000);
  });

  describe("the webhook_event_data_as_text migration", () => {
    it("keeps every stored event's data, digits and characters included", async () => {
      const [row] = await migrateAcross<{ data: string; type: string }>(
        database,
        "webhook_event_data_as_text",
        `
          INSERT INTO buyers (id, name) VALUES ('00000000-0000-4000-8000-0000000000b1', 'Legacy buyer');
          INSERT INTO webhook_events (id, buyer_id, type, data, created_at) VALUES (
            '00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000b1', 'order.updated',
            '{"object": {"id": "o-1", "quantity": 12345678901234.567891, "note": "Müller \\"A\\"\\n\\u00e9"},
              "previous_attributes": {"price_total": 10340.500000}}'::jsonb,
            '2025-03-01T00:00:00.000Z');
        `,
        "SELECT data, pg_typeof(data)::text AS type FROM webhook_events",
      );
      expect(row?.type).toBe("text");
      // As jsonb wrote it: its key order and spacing, every digit and the trailing zeros it kept.
      expect(row?.data).toBe(
        '{"object": {"id": "o-1", "note": "Müller \\"A\\"\\né", "quantity": 12345678901234.567891}, ' +
          '"previous_attributes": {"price_total": 10340.500000}}',
      );
      expect(JSON.stringify(parseExactJson(row?.data ?? ""))).toBe(
        '{"object":{"id":"o-1","note":"Müller \\"A\\"\\né","quantity":12345678901234.567891},' +
          '"previous_attributes":{"price_total":10340.500000}}',
      );
    });
  });
});
