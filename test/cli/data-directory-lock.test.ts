// The lock every process takes on a PGlite folder before opening it: a second
// holder is refused before anything is read or written, and a lock left by a
// process that has ended does not keep the folder shut.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirectoryInUseError, lockPathOf } from "../../src/db/data-directory-lock.js";
import { openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { migratedPgliteUrl } from "../support/pglite-snapshot.js";

describe("the PGlite folder lock", { timeout: 60_000 }, () => {
  let workDir: string;
  /** A folder PGlite has initialised, so that opening it again is quick. */
  let dataDir: string;
  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), "buyer-api-lock-"));
    dataDir = path.join(workDir, "pglite");
    // A copy of the run's saved folder; outside the runner, PGlite initialises one.
    migratedPgliteUrl(dataDir);
    if (!existsSync(dataDir))
      await (await openDatabase(parseDatabaseUrl(`pglite:${dataDir}`), CONFIGURED_POOL)).close();
  }, 120_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it("refuses a second opening while the first is open, and allows one once it is closed", async () => {
    const first = await openDatabase(parseDatabaseUrl(`pglite:${dataDir}`), CONFIGURED_POOL);
    try {
      const second = openDatabase(parseDatabaseUrl(`pglite:${dataDir}`), CONFIGURED_POOL);
      await expect(second).rejects.toBeInstanceOf(DataDirectoryInUseError);
      await expect(second).rejects.toThrow(`in use by process ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPathOf(dataDir))).toBe(false);
    const again = await openDatabase(parseDatabaseUrl(`pglite:${dataDir}`), CONFIGURED_POOL);
    expect(await again.ping()).toBe(true);
    await again.close();
  });

  it("refuses a folder a running process holds before creating or reading it", async () => {
    const unopened = path.join(workDir, "held");
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      writeFileSync(lockPathOf(unopened), JSON.stringify({ pid: holder.pid, command: "server.js" }));
      const opening = openDatabase(parseDatabaseUrl(`pglite:${unopened}`), CONFIGURED_POOL);
      await expect(opening).rejects.toThrow(
        new RegExp(
          `^the PGlite database .*held is in use by process ${holder.pid} \\(server\\.js\\); .*stop it`,
        ),
      );
      expect(existsSync(unopened)).toBe(false);
      expect(JSON.parse(readFileSync(lockPathOf(unopened), "utf8"))).toMatchObject({ pid: holder.pid });
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock whose process has ended, and removes it on close", async () => {
    const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = Number(ended.stdout.toString());
    writeFileSync(lockPathOf(dataDir), JSON.stringify({ pid: deadPid, command: "killed" }));
    const database = await openDatabase(parseDatabaseUrl(`pglite:${dataDir}`), CONFIGURED_POOL);
    try {
      expect(JSON.parse(readFileSync(lockPathOf(dataDir), "utf8"))).toMatchObject({ pid: process.pid });
    } finally {
      await database.close();
    }
    expect(existsSync(lockPathOf(dataDir))).toBe(false);
  });
});
