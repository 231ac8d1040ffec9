// `npm run demo` on a PGlite folder, with an operator's other commands beside
// it: PGlite belongs to one process, so a second one is refused before it
// writes anything, and a restarted demo serves what the first one left.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { projectRoot } from "../../src/project-root.js";
import { runCli } from "../support/cli-process.js";
import { CLI_ENTRY } from "../support/compiled.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { onPostgres } from "../support/test-database.js";

const DEMO_FILE = JSON.parse(readFileSync(path.join(projectRoot(), "data", "demo.json"), "utf8")) as {
  buyers: { id: string }[];
};
const DEMO_BUYER = DEMO_FILE.buyers[0]?.id ?? "";

interface DemoProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  baseUrl: string;
  apiKey: string;
  orderId: string;
  output: string;
}

/** `buyer-api demo --serve` on `databaseUrl`, once it listens and has printed its requests. */
async function startDemo(databaseUrl: string): Promise<DemoProcess> {
  const child = spawn(process.execPath, [CLI_ENTRY, "demo", "--serve"], {
    cwd: projectRoot(),
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (/orders\/[0-9a-f-]{36}'\n/.test(output) && /listening on http:\/\/127\.0\.0\.1:\d+/.test(output))
        resolve();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    void exited.then((code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
  return {
    child,
    exited,
    output,
    baseUrl: `http://127.0.0.1:${port}/api/public/buyer/v1`,
    apiKey: /API key: (\S+)/.exec(output)?.[1] ?? "",
    orderId: /orders\/([0-9a-f-]{36})'\n/.exec(output)?.[1] ?? "",
  };
}

async function stopDemo(demo: DemoProcess | undefined): Promise<number | null> {
  if (!demo) return null;
  demo.child.kill("SIGTERM");
  return demo.exited;
}

async function orderStatus(
  demo: DemoProcess,
  apiKey: string,
): Promise<{ status: number; orderStatus: string }> {
  const response = await fetch(`${demo.baseUrl}/orders/${demo.orderId}`, {
    headers: { "x-api-key": apiKey },
  });
  const body = (await response.json()) as { order_status?: string };
  return { status: response.status, orderStatus: body.order_status ?? "" };
}

describe.skipIf(onPostgres)("the demo on a PGlite folder", { timeout: 300_000 }, () => {
  let workDir: string;
  let databaseUrl: string;
  let demo: DemoProcess | undefined;

  beforeAll(() => {
    workDir = mkdtempSync(path.join(tmpdir(), "buyer-api-demo-dir-"));
    databaseUrl = `pglite:${path.join(workDir, "pglite")}`;
  });
  afterAll(async () => {
    await stopDemo(demo);
    rmSync(workDir, { recursive: true, force: true });
  });

  it("refuses a second process on its folder with one line, writes nothing, and serves what it kept after a restart", async () => {
    demo = await startDemo(databaseUrl);
    expect(demo.output).toContain("Demo data loaded");
    const { orderId } = demo;
    const confirmed = await fetch(`${demo.baseUrl}/orders/${demo.orderId}`, {
      method: "PATCH",
      headers: { "x-api-key": demo.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ order_status: "shipped" }),
    });
    expect(confirmed.status).toBe(200);

    // While the demo holds the folder: refused, one line naming the holder, nothing written.
    const refused = await runCli(databaseUrl, "keys", "create", "--buyer", DEMO_BUYER, "--name", "second");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe("");
    const lines = refused.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: .*in use by process \d+ .*demo --serve.*http:\/\/127\.0\.0\.1:\d+/);
    expect(lines[0]).toMatch(/stop it/);

    expect(await stopDemo(demo)).toBe(0);
    demo = undefined;

    // Once it has stopped, the same command works.
    const created = await runCli(databaseUrl, "keys", "create", "--buyer", DEMO_BUYER, "--name", "second");
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const newKey = created.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(newKey).toMatch(/^bpk_/);

    // Started again, the demo serves the folder as it is: the order stays shipped, the new key works.
    demo = await startDemo(databaseUrl);
    expect(demo.output).toMatch(/already has data/);
    expect(demo.output).not.toContain("Demo data loaded");
    expect(demo.orderId).toBe(orderId);
    expect(await orderStatus(demo, newKey)).toEqual({ status: 200, orderStatus: "shipped" });
    expect(await stopDemo(demo)).toBe(0);
    demo = undefined;

    // The order's only update in the change log is the PATCH: the restart wrote nothing.
    const database = await openDatabase(parseDatabaseUrl(databaseUrl), CONFIGURED_POOL);
    try {
      const entries = await database.query<{ change: string }>(
        `SELECT change FROM change_log WHERE record_type = 'order' AND record_id = $1 ORDER BY seq`,
        [orderId],
      );
      expect(entries.map((entry) => entry.change)).toEqual(["created", "updated"]);
    } finally {
      await database.close();
    }
  });
});
