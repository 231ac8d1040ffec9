// The record type of each logged table (src/db/change-log.ts), which reads'
// ETags follow, against the change log's triggers in the database: a table
// logged by a new trigger cannot be left out, nor one named under another type.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECORD_TYPE_OF_TABLE } from "../../src/db/change-log.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

describe("record types of logged tables", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("name every table a change log trigger fires on, by the type its trigger logs", async () => {
    const triggers = await database.query<{
      table: string;
      function: string;
      arguments: string;
      body: string;
    }>(
      `SELECT c.relname AS table, p.proname AS function, encode(t.tgargs, 'escape') AS arguments, p.prosrc AS body
       FROM pg_trigger AS t
       JOIN pg_class AS c ON c.oid = t.tgrelid
       JOIN pg_proc AS p ON p.oid = t.tgfoid
       WHERE NOT t.tgisinternal AND p.proname LIKE 'change\\_log\\_%' AND c.relname <> 'change_log'`,
      [],
    );
    const logged = new Set(triggers.map((trigger) => trigger.table));
    expect([...logged].sort()).toEqual([...RECORD_TYPE_OF_TABLE.keys()].sort());
    for (const trigger of triggers) {
      // The generic functions take the record type as their first argument; the others name it in their body.
      const [argument] = trigger.arguments.split("\\000");
      const named = argument
        ? [argument]
        : [...trigger.body.matchAll(/change_log_append\('([a-z_]+)'/g)].map((match) => match[1]);
      expect(named, `${trigger.table}: ${trigger.function}`).toEqual(
        named.map(() => RECORD_TYPE_OF_TABLE.get(trigger.table)),
      );
      expect(named.length, `${trigger.table}: ${trigger.function}`).toBeGreaterThan(0);
    }
  });
});
