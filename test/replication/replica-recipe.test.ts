// docs/reference/operations.md's replica recipe, run as a newcomer pastes it: on a
// primary of the test's own (a temporary cluster on a free port, removed
// after), the recipe's commands make the database, the replication role, the
// pg_hba.conf line and the replica; the gateway started with the recipe's two
// URLs then reads on that replica. Only the variables at the recipe's top are
// set to the test's, and `npm start` is the test's server process.

import { spawnSync } from "node:child_process";
import { appendFileSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { projectRoot } from "../../src/project-root.js";
import { postgresServerBinaries } from "../../tools/postgres-clusters.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { eventually } from "../support/eventually.js";
import { seedBuyer } from "../support/seed.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../support/server-process.js";

const binaries = postgresServerBinaries();
const asRoot = process.getuid?.() === 0;

/** The recipe's shell block, from docs/reference/operations.md. */
function recipe(): string {
  const docs = readFileSync(path.join(projectRoot(), "docs", "reference", "operations.md"), "utf8");
  const section = docs.slice(docs.indexOf("**Setting one up.**"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("docs/reference/operations.md has no replica recipe");
  return block;
}

/** The recipe with each variable at its top set to `values`; every one must be there. */
function withValues(script: string, values: Record<string, string>): string {
  let result = script;
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^${name}=.*$`, "m");
    expect(result, `the recipe sets ${name}`).toMatch(line);
    result = result.replace(line, `${name}=${value}`);
  }
  return result;
}

/** Runs `script` with bash as the `postgres` user (PostgreSQL refuses root), PostgreSQL's tools first on PATH. */
function runAsPostgres(script: string, directory: string): { status: number | null; output: string } {
  const file = path.join(directory, "recipe.sh");
  writeFileSync(file, `set -euo pipefail\n${script}`);
  const env = { ...process.env, PATH: `${binaries}:${process.env.PATH}`, HOME: directory };
  const run = asRoot
    ? spawnSync(
        "runuser",
        ["-u", "postgres", "--", "env", `PATH=${env.PATH}`, `HOME=${directory}`, "bash", file],
        {
          cwd: projectRoot(),
          encoding: "utf8",
          timeout: 240_000,
        },
      )
    : spawnSync("bash", [file], { cwd: projectRoot(), env, encoding: "utf8", timeout: 240_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

describe.runIf(binaries)("the replica recipe of docs/reference/operations.md", { timeout: 400_000 }, () => {
  const root = mkdtempSync(path.join(tmpdir(), "bpa-replica-recipe-"));
  const primaryData = path.join(root, "primary");
  const replicaData = path.join(root, "replica");
  let primaryPort: number;
  let replicaPort: number;
  let gateway: ServerProcess | undefined;
  const started: string[] = [];

  const pgCtl = (dir: string, ...args: string[]) =>
    runAsPostgres(`pg_ctl -D '${dir}' -m immediate -w ${args.join(" ")}`, root);

  beforeAll(async () => {
    if (asRoot) {
      const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout);
      const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout);
      chownSync(root, uid, gid);
    }
    [primaryPort, replicaPort] = [await freePort(), await freePort()];
    // The primary the recipe starts from: PostgreSQL's defaults, on a port and socket of its own.
    const init = runAsPostgres(`initdb -D '${primaryData}' -U postgres --auth=trust --no-sync -E UTF8`, root);
    expect(init.status, init.output).toBe(0);
    appendFileSync(
      path.join(primaryData, "postgresql.conf"),
      `\nport = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nfsync = off\n`,
    );
    const start = runAsPostgres(`pg_ctl -D '${primaryData}' -l '${primaryData}.log' -w start`, root);
    expect(start.status, start.output).toBe(0);
    started.push(primaryData);
  }, 120_000);

  afterAll(async () => {
    await stopServerProcess(gateway);
    for (const dir of started.reverse()) pgCtl(dir, "stop");
    rmSync(root, { recursive: true, force: true });
  });

  it("makes a replica the gateway reads on", async () => {
    const values = {
      PRIMARY_HOST: "127.0.0.1",
      PRIMARY_PORT: String(primaryPort),
      REPLICA_HOST: "127.0.0.1",
      REPLICA_ADDRESS: "127.0.0.1/32",
      REPLICA_PORT: String(replicaPort),
      REPLICA_DATA: replicaData,
      REPLICATION_PASSWORD: "recipe-test",
    };
    const [setUp = "", gatewayStep = ""] = withValues(recipe(), values).split(/^# 4\..*$/m);
    const result = runAsPostgres(setUp, root);
    started.push(replicaData);
    expect(result.status, result.output).toBe(0);

    // Step 4's variables, as the shell gives them; the test's process stands for `npm start`.
    const assignments = gatewayStep.replace(/\bnpm start\b/, "env");
    const env = Object.fromEntries(
      runAsPostgres(
        `${Object.entries(values)
          .map(([name, value]) => `${name}=${value}`)
          .join("\n")}\n${assignments}`,
        root,
      )
        .output.split("\n")
        .filter((line) => line.startsWith("DATABASE_"))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(env).toEqual({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${primaryPort}/buyer_api`,
      DATABASE_REPLICA_URLS: `postgres://postgres@127.0.0.1:${replicaPort}/buyer_api`,
    });
    gateway = await startServerProcess({
      ...env,
      WEBHOOK_WORKER_ENABLED: "false",
      RESPONSE_CACHE_MAX_BYTES: "0",
    });
    const ready = await eventually(async () => {
      const body = (await (await fetch(`${gateway?.baseUrl}/readyz`)).json()) as {
        replicas?: { state: string }[];
      };
      return body.replicas?.[0]?.state === "in_use" ? body : null;
    }, 60_000);
    expect(ready.replicas).toHaveLength(1);

    const primary = await openDatabase(parseDatabaseUrl(env.DATABASE_URL), CONFIGURED_POOL);
    const buyer = await seedBuyer(primary, "Recipe").finally(() => primary.close());
    const replica = new RegExp(
      `^database_reads_total\\{server="127\\.0\\.0\\.1:${replicaPort}/buyer_api"\\} (\\d+)$`,
      "m",
    );
    const replicaReads = await eventually(async () => {
      const list = await fetch(`${gateway?.baseUrl}/api/public/buyer/v1/orders`, {
        headers: { "x-api-key": buyer.apiKey },
      });
      expect(list.status).toBe(200);
      const metrics = await (await fetch(`${gateway?.baseUrl}/metrics`)).text();
      const served = Number(replica.exec(metrics)?.[1] ?? 0);
      return served > 0 ? served : null;
    }, 60_000);
    expect(replicaReads).toBeGreaterThan(0);
  });
});
