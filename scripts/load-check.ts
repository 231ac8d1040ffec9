// npm run load:check — 60 s of mixed traffic at 50 connections against two
// server processes sharing one PostgreSQL. Reports throughput, p50/p99, errors
// (anything but the intended 4xx) and the workers' memory over the run.

import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { loadDemoData } from "../src/cli/demo-data.js";
import { poolOptions } from "../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../src/config.js";
import { openDatabase } from "../src/db/database.js";
import { parseDatabaseUrl } from "../src/db/database-url.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { projectRoot } from "../src/project-root.js";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const ADMIN_URL = process.env.LOAD_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `bpa_load_${process.pid}`;
const PORT = 4391;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function workerPids(primary: number): number[] {
  try {
    return readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8").trim().split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

const url = new URL(ADMIN_URL);
url.pathname = `/${DB_NAME}`;
await admin(`CREATE DATABASE "${DB_NAME}"`);
const database = await openDatabase(parseDatabaseUrl(url.toString()), poolOptions(DEFAULT_CONFIG));
let server: ReturnType<typeof spawn> | undefined;
try {
  await migrateDatabase(database);
  const { demo } = await loadDemoData(database);
  if (!demo) throw new Error(`${DB_NAME} is not empty: the demo data was not loaded`);
  const orderIds = (
    await database.prisma.order.findMany({ where: { buyer: { name: demo.buyerName } }, select: { id: true } })
  ).map((order) => order.id);
  await database.close();

  execFileSync("npm", ["run", "build", "--silent"], { cwd: projectRoot(), stdio: "inherit" });
  server = spawn(process.execPath, ["dist/src/server.js"], {
    cwd: projectRoot(),
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      WEB_CONCURRENCY: "2",
      PORT: String(PORT),
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
      RATE_LIMIT_PER_MINUTE: "10000000",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${PORT}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      if (attempt > 120) throw new Error("server did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const primary = server.pid ?? 0;
  const memory: number[][] = [];
  const sample = () => memory.push(workerPids(primary).map(rssMiB));
  sample();
  const sampler = setInterval(sample, 5000);

  let sequence = 0;
  const headers = { "x-api-key": demo.apiKey, "content-type": "application/json" };
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      { method: "GET", path: "/api/public/buyer/v1/orders?limit=100", headers },
      {
        method: "GET",
        path: "/api/public/buyer/v1/orders?order_status[]=order_placed&created_at_from=2025-01-01",
        headers,
      },
      { method: "GET", path: "/api/public/buyer/v1/buyer_product_approvals", headers },
      {
        method: "PATCH",
        headers,
        setupRequest: (request) => {
          sequence += 1;
          return {
            ...request,
            path: `/api/public/buyer/v1/orders/${orderIds[sequence % orderIds.length]}`,
            body: JSON.stringify({ purchase_order_reference: `PO-LOAD-${sequence}` }),
          };
        },
      },
      {
        method: "POST",
        path: "/api/public/buyer/v1/buyer_products",
        headers,
        setupRequest: (request) => {
          sequence += 1;
          return {
            ...request,
            body: JSON.stringify({
              raw_material_name: `Load material ${sequence}`,
              measurement_unit: "kg",
              product_type: "Raw Material",
            }),
          };
        },
      },
      {
        method: "POST",
        path: "/graphql",
        headers,
        body: JSON.stringify({
          query: "{ orders(first: 20) { edges { node { id orderStatus priceTotal } } } }",
        }),
      },
    ],
  });
  clearInterval(sampler);
  sample();

  const start = memory[1] ?? memory[0] ?? [];
  const end = memory.at(-1) ?? [];
  console.log(`\nLoad check: ${SECONDS} s, ${CONNECTIONS} connections, 2 workers on PostgreSQL`);
  console.log(`requests        ${result.requests.total} (${result.requests.average.toFixed(0)}/s)`);
  console.log(
    `latency         p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(`2xx             ${result["2xx"]}`);
  console.log(`non-2xx         ${result.non2xx} (intended 4xx only: must be 0 here)`);
  console.log(`errors          ${result.errors} (timeouts ${result.timeouts})`);
  console.log(`by status       ${JSON.stringify(result.statusCodeStats)}`);
  console.log(
    `worker RSS MiB  start ${start.map((v) => v.toFixed(0)).join(" / ")}, end ${end.map((v) => v.toFixed(0)).join(" / ")}`,
  );
  console.log(`RSS samples     ${memory.map((row) => row.map((v) => v.toFixed(0)).join("/")).join("  ")}`);
  process.exitCode = result.non2xx + result.errors === 0 ? 0 : 1;
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
}
