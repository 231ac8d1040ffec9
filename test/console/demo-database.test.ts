// `buyer-api demo --serve` takes the database as the configuration describes
// it, like `npm start` and the CLI: every DATABASE_* variable is mapped to the
// database's options in one place, and a replica given to the demo serves its
// reads. What it prints names one origin, the one its links name.
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseOptions } from "../../src/config/database-options.js";
import { listVariables } from "../../src/config/setting.js";
import { CONFIG_TABLE } from "../../src/config/table.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { projectRoot } from "../../src/project-root.js";
import {
  postgresServerBinaries,
  type ReplicatedClusters,
  startReplicatedClusters,
} from "../../tools/postgres-clusters.js";
import { CLI_ENTRY } from "../support/compiled.js";
import { eventually } from "../support/eventually.js";

const POSTGRES = "postgres://buyer_api@db:5432/buyer_api";
/** A non-default value of each DATABASE_* variable a server takes but DATABASE_URL, which the target carries. */
const CHANGED: Record<string, string> = {
  DATABASE_POOL_SIZE: "3",
  DATABASE_IDLE_TIMEOUT: "30s",
  DATABASE_TRANSACTION_WAIT: "500ms",
  DATABASE_NAMED_STATEMENTS: "false",
  DATABASE_REPLICA_URLS: "postgres://buyer_api@replica:5432/buyer_api",
  DATABASE_REPLICA_MAX_LAG: "750ms",
};

describe("the configuration's database options", () => {
  it("change with every DATABASE_* variable, for a server and the demo alike", () => {
    const names = listVariables(CONFIG_TABLE)
      .map((variable) => variable.name)
      // DATABASE_COMMAND_POOL_SIZE is a command's alone (below).
      .filter(
        (name) =>
          name.startsWith("DATABASE_") && !["DATABASE_URL", "DATABASE_COMMAND_POOL_SIZE"].includes(name),
      );
    expect(names.sort()).toEqual(Object.keys(CHANGED).sort());
    const logger = createLogger("silent");
    const options = (env: Record<string, string>) => {
      const { replicas, ...rest } = databaseOptions(loadConfig({ DATABASE_URL: POSTGRES, ...env }), {
        server: logger,
      });
      return { ...rest, replicaUrls: replicas?.urls, maxLagMs: replicas?.maxLagMs, warn: undefined };
    };
    const defaults = options({});
    for (const [name, value] of Object.entries(CHANGED)) {
      expect(options({ [name]: value }), name).not.toEqual(defaults);
    }
    const all = options(CHANGED);
    expect(all).toMatchObject({
      poolSize: 3,
      namedStatements: false,
      idleTimeoutMs: 30_000,
      transactionWaitMs: 500,
      replicaUrls: [CHANGED.DATABASE_REPLICA_URLS],
      maxLagMs: 750,
    });
  });

  it("for a command of the CLI: the primary alone, over a few of the configured connections", () => {
    const command = databaseOptions(loadConfig({ DATABASE_URL: POSTGRES, ...CHANGED }), "command");
    expect(command).toMatchObject({ poolSize: 2, namedStatements: false, transactionWaitMs: 500 });
    expect(command.replicas).toBeUndefined();
  });
});

const binaries = postgresServerBinaries();
const DATABASE = "buyer_api";

describe.runIf(binaries)("the demo on PostgreSQL with a replica", { timeout: 300_000 }, () => {
  let clusters: ReplicatedClusters;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let output = "";
  /** What the demo printed until it was serving. */
  let printed = "";

  beforeAll(async () => {
    clusters = await startReplicatedClusters({ applyDelayMs: 0 });
    await clusters.createDatabase(DATABASE);
    child = spawn(process.execPath, [CLI_ENTRY, "demo", "--serve"], {
      cwd: projectRoot(),
      env: {
        ...process.env,
        DATABASE_URL: clusters.primaryUrl(DATABASE),
        DATABASE_REPLICA_URLS: clusters.replicaUrl(DATABASE),
        DATABASE_POOL_SIZE: "2",
        MIGRATE_ON_START: "true",
        HOST: "127.0.0.1",
        PORT: "0",
        PUBLIC_BASE_URL: "",
        LOG_LEVEL: "info",
        // Every read executes: a cached answer would prove nothing about the replica.
        RESPONSE_CACHE_MAX_BYTES: "0",
        WEBHOOK_WORKER_ENABLED: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (/orders\/[0-9a-f-]{36}'\n/.test(output)) {
          printed = output;
          resolve();
        }
      };
      child.stdout?.on("data", collect);
      child.stderr?.on("data", collect);
      void exited.then((code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    });
  }, 240_000);
  afterAll(async () => {
    child?.kill("SIGTERM");
    await exited;
    clusters?.close();
  });

  /** The origin the demo printed: one, whichever line. */
  const printedOrigin = () => {
    const origins = new Set([...printed.matchAll(/https?:\/\/[^/\s'"]+/g)].map(([origin]) => origin));
    expect([...origins]).toHaveLength(1);
    return [...origins][0] ?? "";
  };
  const apiKey = () => /API key: (\S+)/.exec(output)?.[1] ?? "";

  it("prints one origin, which its links name too", async () => {
    const origin = printedOrigin();
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${origin}/api/public/buyer/v1/orders?limit=2`, {
      headers: { "x-api-key": apiKey() },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toContain(`<${origin}/api/public/buyer/v1/orders?`);
  });

  it("reads on the replica it was given", async () => {
    const origin = printedOrigin();
    await eventually(async () => (await clusters.replicaCaughtUp(DATABASE)) || null, 60_000);
    const replicaReads = await eventually(async () => {
      const list = await fetch(`${origin}/api/public/buyer/v1/orders?limit=5`, {
        headers: { "x-api-key": apiKey() },
      });
      expect(list.status).toBe(200);
      const metrics = await (await fetch(`${origin}/metrics`)).text();
      const served = [...metrics.matchAll(/^database_reads_total\{server="([^"]+)"\} (\d+)$/gm)]
        .filter(([, server]) => server !== "primary")
        .reduce((sum, [, , count]) => sum + Number(count), 0);
      return served > 0 ? served : null;
    }, 60_000);
    expect(replicaReads).toBeGreaterThan(0);
  });
});
