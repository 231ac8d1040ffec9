// What an import does to a record changed through the API since the file was
// last imported (docs/reference/import-format.md, "How an import behaves"): the file is
// the source of truth for the records it carries, so the record goes back to
// what the file says, the change is logged like any other, and the CLI says
// how many stored records it changed.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { importFile } from "../../src/import/import.js";
import { createLogger } from "../../src/logger.js";
import { runCli } from "../support/cli-process.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { migratedPgliteUrl } from "../support/pglite-snapshot.js";
import { callApi, testConfig } from "../support/test-app.js";
import { createTestDatabase } from "../support/test-database.js";

const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "example.json");
const EXAMPLE_KEY = "bpk_example_0123456789abcdefghijklmnopqrstuv";
const ORDER = "00000000-0000-4000-8000-000000008001";

/** Runs `work` with the API over the database at `url`, closed afterwards (a PGlite folder has one holder). */
async function withApi<T>(
  url: string,
  work: (app: ReturnType<typeof createApp>, database: Database) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(parseDatabaseUrl(url), CONFIGURED_POOL);
  try {
    await migrateDatabase(database);
    const app = createApp({
      config: testConfig(),
      database,
      logger: createLogger("silent"),
    });
    return await work(app, database);
  } finally {
    await database.close();
  }
}

describe("an import over a record changed through the API", { timeout: 300_000 }, () => {
  let workDir: string;
  let databaseUrl: string;
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), "buyer-api-reimport-"));
    if (process.env.DATABASE_URL?.startsWith("postgres")) {
      const database = await createTestDatabase();
      databaseUrl = database.url;
      cleanup = () => database.close();
    } else {
      databaseUrl = migratedPgliteUrl(path.join(workDir, "pglite"));
    }
  });
  afterAll(async () => {
    await cleanup();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("sets it back to the file's values, logs that change, and says how many records it changed", async () => {
    await withApi(databaseUrl, async (app, database) => {
      expect((await importFile(database, EXAMPLE)).ok).toBe(true);
      const patched = await callApi(app, "PATCH", `/orders/${ORDER}`, {
        key: EXAMPLE_KEY,
        body: { order_status: "shipped", purchase_order_reference: "PO-FROM-API" },
      });
      expect(patched.status).toBe(200);
    });

    const again = await runCli(databaseUrl, "import", EXAMPLE);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    // kind, in file, new, updated, unchanged, removed
    expect(again.stdout).toMatch(/^orders\s+2\s+0\s+1\s+1\s+0$/m);
    expect(again.stdout).toMatch(/^1 stored record differed from the file and now matches it\.$/m);

    await withApi(databaseUrl, async (app, database) => {
      const order = await callApi(app, "GET", `/orders/${ORDER}`, { key: EXAMPLE_KEY });
      expect(order.body).toMatchObject({ order_status: "order_placed", purchase_order_reference: "PO-7781" });
      const log = await database.query<{ change: string; previous: { order_status?: string } | null }>(
        "SELECT change, previous FROM change_log WHERE record_type = 'order' AND record_id = $1 ORDER BY seq",
        [ORDER],
      );
      expect(log.map((entry) => [entry.change, entry.previous?.order_status ?? null])).toEqual([
        ["created", null],
        ["updated", "order_placed"],
        ["updated", "shipped"],
      ]);
    });
  });
});
