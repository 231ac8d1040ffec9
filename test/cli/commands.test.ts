// The real CLI in a child process, as an operator runs it: output, exit codes
// and what it leaves in the database. Then what an import does to a record
// changed through the API since the file was last imported
// (docs/reference/import-format.md, "How an import behaves"): the file is the
// source of truth for the records it carries, so the record goes back to what
// the file says, the change is logged like any other, and the CLI says how
// many stored records it changed.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import type { Database } from "../../src/db/database.js";
import { importFile } from "../../src/import/import.js";
import { createLogger } from "../../src/logger.js";
import { type ChildProcessDatabase, databaseForChildProcesses } from "../support/child-process-database.js";
import { runCli } from "../support/cli-process.js";
import { callApi, testConfig } from "../support/test-app.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXAMPLE = path.join(ROOT, "test", "cli", "fixtures", "example.json");
const BUYER = "00000000-0000-4000-8000-000000001001";
// Each run starts Node and opens the database: seconds, not milliseconds.
const SLOW = 90_000;

describe("buyer-api CLI", () => {
  const shared = databaseForChildProcesses("buyer-api-cli-");
  const cli = (...args: string[]) => runCli(shared.url, ...args);

  it(
    "imports a file and prints a summary",
    async () => {
      const run = await cli("import", EXAMPLE);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^orders\s+2\s+2\s+0\s+0\s+0$/m);
      expect(run.stdout).toMatch(/^No stored record differed from the file\.$/m);
    },
    SLOW,
  );

  it(
    "issues a key shown once as the last line, lists it, and revokes it",
    async () => {
      const created = await cli("keys", "create", "--buyer", BUYER, "--name", "erp sync");
      expect(created.code).toBe(0);
      const lines = created.stdout.trimEnd().split("\n");
      const key = lines.at(-1) ?? "";
      expect(key).toMatch(/^bpk_[A-Za-z0-9_-]{32,}$/);
      const keyId = /API key ([0-9a-f-]{36})/.exec(created.stdout)?.[1];
      expect(keyId).toBeDefined();

      const listed = await cli("keys", "list", "--buyer", BUYER);
      expect(listed.code).toBe(0);
      expect(listed.stdout).not.toContain(key);
      const row = listed.stdout.split("\n").find((line) => line.startsWith(keyId ?? "?")) ?? "";
      expect(row).toContain(key.slice(0, 12));
      expect(row).toContain("erp sync");
      expect(row).toMatch(/never\s+-$/);

      const revoked = await cli("keys", "revoke", keyId ?? "");
      expect(revoked.code).toBe(0);
      const after = await cli("keys", "list", "--buyer", BUYER);
      const revokedRow = after.stdout.split("\n").find((line) => line.startsWith(keyId ?? "?")) ?? "";
      expect(revokedRow).toMatch(/never\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);

      const unknown = await cli("keys", "revoke", "00000000-0000-4000-8000-0000000000ff");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe("error: no API key with id 00000000-0000-4000-8000-0000000000ff");
    },
    SLOW,
  );

  it(
    "exits 1 on a bad import file, listing every problem on stderr and writing nothing",
    async () => {
      const file = JSON.parse(readFileSync(EXAMPLE, "utf8")) as {
        buyers: { id: string; name: string }[];
        orders: { order_status: string }[];
      };
      file.buyers.push({ id: "00000000-0000-4000-8000-000000001002", name: "Should Not Appear" });
      if (file.orders[1]) file.orders[1].order_status = "teleported";
      const bad = path.join(shared.workDir, "bad.json");
      writeFileSync(bad, JSON.stringify({ ...file, extra: true }));

      const run = await cli("import", bad);

      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^orders\[1\]\.order_status: must be one of /);
      expect(lines[1]).toMatch(/^extra: unknown top-level key/);
      expect(lines[2]).toBe("error: bad.json was not imported: 2 problem(s), nothing was written");
      expect(run.stderr).not.toMatch(/\n\s+at /);

      const buyers = await cli("buyers", "list");
      expect(buyers.stdout).not.toContain("Should Not Appear");
    },
    SLOW,
  );
});

const EXAMPLE_KEY = "bpk_example_0123456789abcdefghijklmnopqrstuv";
const ORDER = "00000000-0000-4000-8000-000000008001";

/** Runs `work` with the API over `shared`, opened in this process for it and closed after. */
function withApi<T>(
  shared: ChildProcessDatabase,
  work: (app: ReturnType<typeof createApp>, database: Database) => Promise<T>,
): Promise<T> {
  return shared.use((database) =>
    work(createApp({ config: testConfig(), database, logger: createLogger("silent") }), database),
  );
}

describe("an import over a record changed through the API", { timeout: 300_000 }, () => {
  const shared = databaseForChildProcesses("buyer-api-reimport-");

  it("sets it back to the file's values, logs that change, and says how many records it changed", async () => {
    await withApi(shared, async (app, database) => {
      expect((await importFile(database, EXAMPLE)).ok).toBe(true);
      const patched = await callApi(app, "PATCH", `/orders/${ORDER}`, {
        key: EXAMPLE_KEY,
        body: { order_status: "shipped", purchase_order_reference: "PO-FROM-API" },
      });
      expect(patched.status).toBe(200);
    });

    const again = await runCli(shared.url, "import", EXAMPLE);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    // kind, in file, new, updated, unchanged, removed
    expect(again.stdout).toMatch(/^orders\s+2\s+0\s+1\s+1\s+0$/m);
    expect(again.stdout).toMatch(/^1 stored record differed from the file and now matches it\.$/m);

    await withApi(shared, async (app, database) => {
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
