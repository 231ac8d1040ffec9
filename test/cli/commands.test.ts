// The real CLI in a child process, as an operator runs it: output, exit codes
// and what it leaves in the database.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { migratedPgliteUrl } from "../support/pglite-snapshot.js";
import { createTestDatabase } from "../support/test-database.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXAMPLE = path.join(ROOT, "test", "cli", "fixtures", "example.json");
const BUYER = "00000000-0000-4000-8000-000000001001";
// Each run starts Node and opens the database: seconds, not milliseconds.
const SLOW = 90_000;

describe("buyer-api CLI", () => {
  let databaseUrl: string;
  let workDir: string;
  let cleanup: () => Promise<void>;

  const cli = (...args: string[]) => runCli(databaseUrl, ...args);

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), "buyer-api-cli-"));
    if (process.env.DATABASE_URL?.startsWith("postgres")) {
      const database = await createTestDatabase();
      databaseUrl = database.url;
      cleanup = () => database.close();
    } else {
      // A child process cannot see an in-memory PGlite: this one lives in a folder.
      databaseUrl = migratedPgliteUrl(path.join(workDir, "pglite"));
      cleanup = async () => {};
    }
  });
  afterAll(async () => {
    await cleanup?.();
    rmSync(workDir, { recursive: true, force: true });
  });

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
      const bad = path.join(workDir, "bad.json");
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
