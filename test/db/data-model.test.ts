// The tables behind the models (src/db/data-model.ts), as the planned reads
// write SQL with them: every table, column and join they name is one the
// migrated database has. After a Prisma upgrade this says whether the names
// `prisma generate` writes still come through (docs/design/contributing.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataModel } from "../../src/db/data-model.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

describe("the data model the planned reads write SQL with", () => {
  let database: TestDatabase;
  /** `table.column` of every column of the migrated database. */
  let columns: Set<string>;

  beforeAll(async () => {
    database = await createTestDatabase();
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

  afterAll(async () => {
    await database?.close();
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
