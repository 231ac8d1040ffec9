// npm run bench:backlog [-- --orders 100000]
// Events after a bulk import, on PostgreSQL: one server process (with its
// webhook worker) runs while `buyer-api import` loads a generated file
// (scripts/generate-import-file.ts) in a process of its own; the report says
// how long the import took, how long after its commit every change log entry
// was rendered into an event, and the server's resident memory before, at its
// peak and at the end. Uses the scratch database `bpa_bench_backlog`.
// Figures go to docs/reference/webhooks.md; never asserted in tests.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { dropDatabase, migrate, recreateDatabase } from "../bench/dataset.js";
import { poolOptions } from "../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../src/config.js";
import { openDatabase } from "../src/db/database.js";
import { parseDatabaseUrl } from "../src/db/database-url.js";
import { projectRoot } from "../src/project-root.js";

const { values: options } = parseArgs({ options: { orders: { type: "string", default: "100000" } } });
const ORDERS = Number(options.orders);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = "bpa_bench_backlog";
const databaseUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  return url.toString();
})();
const file = path.join(tmpdir(), `bpa-bench-backlog-${process.pid}.json`);
const children: ChildProcess[] = [];

/** Runs a TypeScript entry point of this repository; resolves with its output once it printed `ready` (or exited 0). */
function run(
  args: string[],
  env: Record<string, string>,
  ready?: RegExp,
): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: projectRoot(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const done = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready?.test(output)) resolve(output);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      code === 0 && !ready
        ? resolve(output)
        : reject(new Error(`${args[0]} exited with ${code}:\n${output.slice(-2000)}`)),
    );
  });
  return { child, done };
}

/** Resident memory of a process, now and at its peak, in MB (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

async function main() {
  await recreateDatabase(ADMIN_URL, NAME);
  await migrate(databaseUrl);
  await run(["scripts/generate-import-file.ts", "--orders", String(ORDERS), "--out", file], {}).done;

  const server = run(
    ["src/server.ts"],
    {
      DATABASE_URL: databaseUrl,
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 13).toString("base64"),
    },
    /listening on/,
  );
  await server.done;
  const pid = server.child.pid ?? 0;
  // The worker's first looks, on an empty database, before the import.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = memoryOf(pid);

  const importStarted = performance.now();
  await run(["src/cli/main.ts", "import", file], { DATABASE_URL: databaseUrl }).done;
  const committed = performance.now();

  const database = await openDatabase(parseDatabaseUrl(databaseUrl), poolOptions(DEFAULT_CONFIG));
  let peakRssMb = 0;
  let unrendered = Number.POSITIVE_INFINITY;
  let lastReport = committed;
  while (unrendered > 0) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    unrendered = await database.prisma.changeLogUnrendered.count();
    peakRssMb = Math.max(peakRssMb, memoryOf(pid).rssMb);
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      const seconds = ((lastReport - committed) / 1000).toFixed(0);
      console.log(`  ${seconds} s: ${unrendered} entries waiting, server RSS ${memoryOf(pid).rssMb} MB`);
    }
  }
  const rendered = performance.now();
  const events = await database.prisma.webhookEvent.count();
  const byType = await database.prisma.webhookEvent.groupBy({ by: ["type"], _count: true });
  await database.close();
  const after = memoryOf(pid);

  console.log(`\nImport of ${ORDERS} orders (${file}): ${((committed - importStarted) / 1000).toFixed(1)} s`);
  console.log(
    `Every entry rendered ${((rendered - committed) / 1000).toFixed(1)} s after the import committed: ${events} events`,
  );
  for (const { type, _count } of byType.sort((a, b) => a.type.localeCompare(b.type)))
    console.log(`  ${type}: ${_count}`);
  console.log(
    `Server RSS: ${before.rssMb} MB before the import, ${peakRssMb} MB at most while rendering ` +
      `(${after.peakMb} MB peak over its life), ${after.rssMb} MB at the end`,
  );
}

try {
  await main();
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(file, { force: true });
  await dropDatabase(ADMIN_URL, NAME).catch(() => {});
}
