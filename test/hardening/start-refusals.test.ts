// A server that cannot start says why in one line and exits non-zero: no
// stack trace, no worker restarted over and over, no error repeated every second.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDirectory } from "../../src/db/data-directory-lock.js";
import { projectRoot } from "../../src/project-root.js";
import { unsupportedNode } from "../../src/server/node-version.js";
import { runCli, runCliWith } from "../support/cli-process.js";
import { SERVER_ENTRY } from "../support/compiled.js";
import { TEST_WEBHOOK_SECRET_KEY } from "../support/server-process.js";
import { onPostgres } from "../support/test-database.js";

/** Runs the compiled server on `node` until it exits (at most `timeoutMs`): its exit code and stderr. */
function runServerUntilExit(
  env: Record<string, string>,
  node = process.execPath,
  timeoutMs = 90_000,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(node, [SERVER_ENTRY], {
    cwd: projectRoot(),
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe("a port another process listens on", { timeout: 120_000 }, () => {
  let occupant: Server;
  let port: number;
  beforeAll(async () => {
    occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen(0, "127.0.0.1", resolve));
    port = (occupant.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => occupant?.close(resolve));
  });

  const expectOneLineNamingPort = (result: { code: number | null; stderr: string }) => {
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `PORT ${port} is already in use on 127.0.0.1: stop what listens there, or set PORT to a free port`,
    ]);
  };

  it("stops one server process with one line naming PORT", async () => {
    expectOneLineNamingPort(
      await runServerUntilExit({
        PORT: String(port),
        DATABASE_URL: "pglite:memory",
        MIGRATE_ON_START: "true",
      }),
    );
  });

  it("stops `npm run demo` and `npm start` with that line before their build and their database", async () => {
    for (const script of ["demo", "start"]) {
      const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "bpa-busy-port-")), "pglite");
      try {
        const result = spawnSync("npm", ["run", "--silent", script], {
          cwd: projectRoot(),
          env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), DATABASE_URL: `pglite:${dataDir}` },
          encoding: "utf8",
          timeout: 90_000,
        });
        expectOneLineNamingPort({ code: result.status, stderr: result.stderr });
        // Nothing opened the database: its folder was never made.
        expect(existsSync(dataDir)).toBe(false);
      } finally {
        rmSync(path.dirname(dataDir), { recursive: true, force: true });
      }
    }
  });

  it("stops `buyer-api demo --serve` with that line before it opens its database", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "bpa-busy-port-")), "pglite");
    try {
      const result = await runCliWith(
        { PORT: String(port), HOST: "127.0.0.1" },
        `pglite:${dataDir}`,
        "demo",
        "--serve",
      );
      expectOneLineNamingPort({ code: result.code, stderr: result.stderr });
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });

  it.runIf(onPostgres)("stops a cluster with one line naming PORT, before starting any worker", async () => {
    const result = await runServerUntilExit({
      PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      WEB_CONCURRENCY: "2",
    });
    expectOneLineNamingPort(result);
    expect(result.stdout).not.toContain("started workers");
  });
});

describe("a PGlite folder another process holds", { timeout: 120_000 }, () => {
  it("stops the server with one line naming the holder, and leaves the folder untouched", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "bpa-held-")), "pglite");
    const lock = lockDataDirectory(dataDir);
    try {
      const result = await runServerUntilExit({ PORT: "0", DATABASE_URL: `pglite:${dataDir}` });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          new RegExp(`^error: the PGlite database ${dataDir} is in use by process ${process.pid} `),
        ),
      ]);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      lock.release();
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });
});

describe("a DATABASE_URL that parses but cannot be connected to", { timeout: 120_000 }, () => {
  /** A PostgreSQL this test can reach: the suite's, else the machine's. */
  const server = new URL(
    onPostgres ? (process.env.DATABASE_URL ?? "") : "postgres://postgres@127.0.0.1:5432/postgres",
  );
  let reachable = false;
  let closedPort: number;
  beforeAll(async () => {
    const client = new pg.Client({ connectionString: server.toString() });
    reachable = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => {});
    // A port nothing listens on: taken from the kernel, then let go.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
  });

  const missingDatabase = () => {
    const url = new URL(server);
    url.pathname = "/bpa_no_such_database";
    return url.toString();
  };
  const expectedMissing = () =>
    `error: the database "bpa_no_such_database" does not exist on PostgreSQL at ${server.hostname}:${server.port || "5432"}: ` +
    `create it with \`createdb -h ${server.hostname} -p ${server.port || "5432"} -U ${server.username || "postgres"} bpa_no_such_database\`, or fix DATABASE_URL`;
  const expectedClosed = () =>
    `error: cannot connect to PostgreSQL at 127.0.0.1:${closedPort} (connection refused): is PostgreSQL running on 127.0.0.1:${closedPort}? Start it, or fix DATABASE_URL`;

  it("a missing database: the server says so in one line with the createdb that makes it", async (context) => {
    if (!reachable) context.skip();
    const result = await runServerUntilExit({ PORT: "0", DATABASE_URL: missingDatabase() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([expectedMissing()]);
  });

  it("a closed port: the server asks in one line whether PostgreSQL runs there", async () => {
    const result = await runServerUntilExit({
      PORT: "0",
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/buyer_api`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([expectedClosed()]);
  });

  it("the demo and the CLI's commands say the same one line", async (context) => {
    const closed = `postgres://postgres@127.0.0.1:${closedPort}/buyer_api`;
    for (const args of [["demo"], ["db", "migrate"], ["buyers", "list"]]) {
      const result = await runCli(closed, ...args);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([expectedClosed()]);
    }
    if (!reachable) context.skip();
    const missing = await runCli(missingDatabase(), "demo");
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toEqual([expectedMissing()]);
  });
});

describe.runIf(onPostgres)("a cluster whose workers cannot start", { timeout: 120_000 }, () => {
  it("exits non-zero instead of starting workers again and again", async () => {
    // A database that does not exist: every worker fails as it opens it.
    const url = new URL(process.env.DATABASE_URL ?? "");
    url.pathname = "/bpa_missing_database";
    const result = await runServerUntilExit({
      PORT: "0",
      DATABASE_URL: url.toString(),
      WEB_CONCURRENCY: "2",
    });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stdout).toContain("a worker failed to start and none is serving");
    expect(result.stdout).not.toContain("worker died; starting another");
  });
});

describe("the Node.js version", () => {
  it("refuses one older than package.json's engines, and takes the rest", () => {
    expect(unsupportedNode("20.20.2")).toMatch(
      /^buyer-public-api needs Node\.js >=24\.0\.0 \(package\.json engines\); this is Node\.js v20\.20\.2 /,
    );
    expect(unsupportedNode("23.11.1")).not.toBeNull();
    expect(unsupportedNode("24.0.0")).toBeNull();
    expect(unsupportedNode("26.10.0")).toBeNull();
  });

  // The machine's own Node.js, when it is older than the one npm scripts run.
  const systemNode = "/usr/bin/node";
  const systemMajor = existsSync(systemNode)
    ? Number(
        spawnSync(systemNode, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).stdout,
      )
    : 0;
  it.runIf(systemMajor > 0 && systemMajor < 24)(
    "stops at start on an older Node.js with one line naming the version it needs",
    async () => {
      const result = await runServerUntilExit(
        { PORT: "0", DATABASE_URL: "pglite:memory" },
        systemNode,
        30_000,
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("needs Node.js >=24.0.0");
      expect(result.stdout).toBe("");
    },
  );
});
