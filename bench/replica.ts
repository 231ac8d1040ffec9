// The replica bench (`npm run bench:replica`): uncached GET /orders?limit=100
// on a primary of its own with one streaming replica, through a gateway that
// reads on the replica and one that reads on the primary alone. It reports
// the primary's CPU per read in both (the goal: at most 0.2 of it where the
// replica serves the reads) and, under a mix of 10 % writes, the share of
// reads the replica served.
import path from "node:path";
import autocannon from "autocannon";
import { postgresServerBinaries, startReplicatedClusters } from "../tools/postgres-clusters.js";
import { cpuBetween, watchDatabase } from "./database-watch.js";
import { migrate, seedDataset } from "./dataset.js";
import { measure } from "./load.js";
import { type ServerProcess, startServer } from "./processes.js";
import type { RequestPlan } from "./scenarios.js";

export interface ReplicaBenchOptions {
  root: string;
  logDir: string;
  seconds: number;
  rounds: number;
  connections: number;
}

export interface ReplicaBenchResult {
  /** PostgreSQL CPU on the primary per read, ms, median of rounds. */
  primaryCpuMsPerRead: { primaryOnly: number; withReplica: number; ratio: number };
  /** Under reads with 10 % writes: the share of reads the replica served, and the primary's CPU per request. */
  mixed: { replicaShare: number; primaryCpuMsPerRequest: number; requestsPerSecond: number };
}

const DATABASE = "bench_replica";
const PAGE_PATH = "/api/public/buyer/v1/orders?limit=100";
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runReplicaBench(
  options: ReplicaBenchOptions,
  log: (line: string) => void,
): Promise<ReplicaBenchResult | null> {
  if (!postgresServerBinaries()) {
    log("replica bench skipped: the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are missing");
    return null;
  }
  const clusters = await startReplicatedClusters({ applyDelayMs: 0 });
  const gateways: ServerProcess[] = [];
  try {
    await clusters.createDatabase(DATABASE);
    const primaryUrl = clusters.primaryUrl(DATABASE);
    await migrate(primaryUrl);
    const dataset = await seedDataset(primaryUrl);
    log(`replica bench: dataset on its own primary: ${JSON.stringify(dataset.counts)}`);
    while (!(await clusters.replicaCaughtUp(DATABASE))) await new Promise((r) => setTimeout(r, 200));

    const start = (name: string, replicas: string) =>
      startServer({
        name,
        cwd: options.root,
        args: ["--import", "tsx", "src/server.ts"],
        env: {
          NODE_ENV: "production",
          WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
          DATABASE_URL: primaryUrl,
          DATABASE_REPLICA_URLS: replicas,
          HOST: "127.0.0.1",
          RATE_LIMIT_PER_MINUTE: "1000000000",
          RESPONSE_CACHE_MAX_BYTES: "0",
          WEBHOOK_WORKER_ENABLED: "false",
          LOG_LEVEL: "warn",
        },
        logFile: path.join(options.logDir, `${name}.log`),
      });
    const primaryOnly = await start("gateway-primary-only", "");
    gateways.push(primaryOnly);
    const withReplica = await start("gateway-with-replica", clusters.replicaUrl(DATABASE));
    gateways.push(withReplica);

    const headers = { "x-api-key": dataset.apiKey };
    const reads: RequestPlan = { method: "GET", headers, build: () => ({ path: PAGE_PATH }) };
    const database = await watchDatabase(primaryUrl);
    const perRead = { primaryOnly: [] as number[], withReplica: [] as number[] };
    try {
      for (const gateway of gateways) await measure(gateway, reads, { seconds: 2, connections: 4, database });
      for (let round = 0; round < options.rounds; round++) {
        for (const [key, gateway] of [
          ["primaryOnly", primaryOnly],
          ["withReplica", withReplica],
        ] as const) {
          const result = await measure(gateway, reads, {
            seconds: options.seconds,
            connections: options.connections,
            database,
          });
          perRead[key].push(result.databaseCpuMsPerRequest ?? Number.NaN);
          log(
            `replica bench round ${round + 1}: ${gateway.name} ${result.requestsPerSecond.toFixed(1)} req/s, ` +
              `primary ${result.databaseCpuMsPerRequest?.toFixed(3)} CPU ms/read` +
              (result.non2xx + result.errors > 0
                ? `, ${result.non2xx} non-2xx, ${result.errors} errors`
                : ""),
          );
        }
      }

      // Nine reads and one PATCH per connection in turn: a 10 % write mix.
      const before = await readsServed(withReplica.port);
      const cpuBefore = await database.backendCpu();
      let n = 0;
      const mix = await autocannon({
        url: `http://127.0.0.1:${withReplica.port}`,
        connections: options.connections,
        duration: options.seconds,
        requests: [
          ...Array.from({ length: 9 }, () => ({ method: "GET" as const, path: PAGE_PATH, headers })),
          {
            method: "PATCH",
            headers: { ...headers, "content-type": "application/json" },
            setupRequest: (request) => ({
              ...request,
              path: `/api/public/buyer/v1/orders/${dataset.orderIds[n % dataset.orderIds.length]}`,
              body: JSON.stringify({ purchase_order_reference: `PO-replica-${n++}` }),
            }),
          },
        ],
      });
      const cpu = cpuBetween(cpuBefore, await database.backendCpu());
      const after = await readsServed(withReplica.port);
      const served = (source: (name: string) => boolean) =>
        [...after]
          .filter(([name]) => source(name))
          .reduce((sum, [name, count]) => sum + count - (before.get(name) ?? 0), 0);
      const replica = served((name) => name !== "primary");
      const all = served(() => true);
      const result: ReplicaBenchResult = {
        primaryCpuMsPerRead: {
          primaryOnly: median(perRead.primaryOnly),
          withReplica: median(perRead.withReplica),
          ratio: median(perRead.withReplica) / median(perRead.primaryOnly),
        },
        mixed: {
          replicaShare: all > 0 ? replica / all : 0,
          primaryCpuMsPerRequest: mix["2xx"] > 0 ? cpu / mix["2xx"] : Number.NaN,
          requestsPerSecond: mix["2xx"] / mix.duration,
        },
      };
      if (mix.non2xx + mix.errors > 0) log(`replica bench mix: ${mix.non2xx} non-2xx, ${mix.errors} errors`);
      return result;
    } finally {
      await database.close();
    }
  } finally {
    for (const gateway of gateways) await gateway.stop();
    clusters.close();
  }
}

/** `database_reads_total` of one gateway, by server. */
async function readsServed(port: number): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const served = new Map<string, number>();
  for (const match of text.matchAll(/^database_reads_total\{server="([^"]+)"\} (\d+)/gm)) {
    served.set(match[1] ?? "", Number(match[2]));
  }
  return served;
}

/** The result as the report's Markdown table. */
export function replicaTable(result: ReplicaBenchResult): string {
  const { primaryCpuMsPerRead: cpu, mixed } = result;
  return [
    "| uncached GET /orders?limit=100 | primary's PostgreSQL CPU per read |",
    "|---|---:|",
    `| no replica | ${cpu.primaryOnly.toFixed(3)} ms |`,
    `| one replica | ${cpu.withReplica.toFixed(3)} ms (${cpu.ratio.toFixed(2)}×; goal ≤ 0.20×) |`,
    "",
    "| with 10 % PATCH, one replica | |",
    "|---|---:|",
    `| reads served by the replica | ${(mixed.replicaShare * 100).toFixed(1)} % |`,
    `| primary's PostgreSQL CPU per request | ${mixed.primaryCpuMsPerRequest.toFixed(3)} ms |`,
    `| requests per second | ${mixed.requestsPerSecond.toFixed(1)} |`,
  ].join("\n");
}
