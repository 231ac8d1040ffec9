// Events stored before the webhook_event_data_as_text migration held their
// data as jsonb. The migration keeps each as the text jsonb writes, with every
// digit and character it held; the API reads it as the same JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.js";
import { applyMigrations, readMigrations } from "../../src/db/migrations.js";
import { parseExactJson } from "../../src/domain/webhook-events.js";
import { createTestDatabase } from "../support/test-database.js";

const MIGRATION = "webhook_event_data_as_text";

describe(`the ${MIGRATION} migration`, () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase({}, { migrated: false });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it("keeps every stored event's data, digits and characters included", async () => {
    const migrations = readMigrations();
    const index = migrations.findIndex((migration) => migration.name.endsWith(`_${MIGRATION}`));
    expect(index).toBeGreaterThan(0);
    const connection = await database.connect();
    try {
      await applyMigrations(connection, migrations.slice(0, index));
      await connection.exec(`
        INSERT INTO buyers (id, name) VALUES ('00000000-0000-4000-8000-0000000000b1', 'Legacy buyer');
        INSERT INTO webhook_events (id, buyer_id, type, data, created_at) VALUES (
          '00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000b1', 'order.updated',
          '{"object": {"id": "o-1", "quantity": 12345678901234.567891, "note": "Müller \\"A\\"\\n\\u00e9"},
            "previous_attributes": {"price_total": 10340.500000}}'::jsonb,
          '2025-03-01T00:00:00.000Z');
      `);
      expect(await applyMigrations(connection, migrations)).toMatchObject({
        applied: migrations.slice(index).map((migration) => migration.name),
      });
      const [row] = await connection.query<{ data: string; type: string }>(
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
    } finally {
      await connection.release();
    }
  });
});
