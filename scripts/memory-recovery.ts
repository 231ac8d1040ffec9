// `npm run load:memory`: does memory come back after an attack, measured from
// outside? The built gateway as `npm start` runs it, two workers on a generated
// PostgreSQL database, its bounds as by default. Under load for LOAD_SECONDS
// (60): one key's 32 slow readers of its largest GraphQL answer, another key's
// 16 concurrent uncached 500-order pages, and a few clients of small reads.
// Then nothing for 60 s. Prints the process tree's resident set at the start,
// each worker's peak, and the resident set 60 s after the load, against the
// goals. Exits 1 when a goal is missed.
import { execFileSync } from "node:child_process";
import { connect, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Dataset, dropDatabase, migrate, recreateDatabase, seedDataset } from "../bench/dataset.js";
import { childrenOf, resetPeak, settle, statusKb } from "../bench/proc.js";
import { startServer } from "../bench/processes.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const AFTER_SECONDS = 60;
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "bpa_bench_memory";
const SLOW_READERS = 32;
const PAGE_CONNECTIONS = 16;
const SMALL_CONNECTIONS = 4;
/** A slow reader takes this many bytes a second: far slower than the answer comes. */
const SLOW_READ_BYTES_PER_SECOND = 64 * 1024;
const MB = 1_000_000;
const GOAL_RECOVERED_MIB = 100;
const GOAL_WORKER_PEAK_MIB = 1024;

/**
 * The largest answer a key may ask for in one planned read: 500 orders, each
 * with its nested records and a nested connection (within the cost limit).
 */
const LARGEST_QUERY = `{ orders(first: 500) { edges { node {
  id databaseId orderReference purchaseOrderReference supplierOrderReference orderStatus createdAt placedAt
  currency quantity pricePerUom priceTotal taxAmount priceType
  supplier { id name } deliverySite { id siteName } resourceValues { provider value }
  approval { id reference approvalStatus supplierName catalogueParentDisplayName catalogueParentProductCode createdAt updatedAt }
  events(first: 2) { edges { node { id createdAt actor } } }
} } } }`;

const log = (line: string) => console.log(`[memory ${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const mb = (kb: number | null) => ((kb ?? 0) * 1024) / MB;
const fixed = (value: number) => value.toFixed(0);

/** Resident set of the primary and each worker, MB. */
function residentSets(primary: number, workers: number[]): { primary: number; workers: number[] } {
  return {
    primary: mb(statusKb(primary, "VmRSS")),
    workers: workers.map((pid) => mb(statusKb(pid, "VmRSS"))),
  };
}
const total = (sets: { primary: number; workers: number[] }) =>
  sets.primary + sets.workers.reduce((sum, value) => sum + value, 0);

interface Outcomes {
  statuses: Map<number, number>;
  errors: number;
}
const outcomes = (): Outcomes => ({ statuses: new Map(), errors: 0 });
const count = (into: Outcomes, status: number) =>
  into.statuses.set(status, (into.statuses.get(status) ?? 0) + 1);
const describe = ({ statuses, errors }: Outcomes) =>
  `${[...statuses].map(([status, n]) => `${status}: ${n}`).join(", ") || "none"}${errors ? `, errors: ${errors}` : ""}`;

/**
 * One slow reader: sends the query, reads a trickle of its answer, and asks
 * again when the connection ends (read whole, refused, or closed by the
 * server's write timeout), until `stop`.
 */
async function slowReader(port: number, apiKey: string, stop: AbortSignal, into: Outcomes): Promise<void> {
  const body = JSON.stringify({ query: LARGEST_QUERY });
  const request =
    `POST /graphql HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${apiKey}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json\r\nAccept-Encoding: identity\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  while (!stop.aborted) {
    const socket: Socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.pause();
    socket.write(request);
    const done = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    let head = "";
    const status = () => Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0);
    // A trickle: one read of the socket's buffer every 100 ms, about SLOW_READ_BYTES_PER_SECOND.
    const trickle = setInterval(() => {
      const chunk: Buffer | null = socket.read(SLOW_READ_BYTES_PER_SECOND / 10) ?? socket.read();
      if (chunk && head.length < 64) head += chunk.subarray(0, 64).toString("latin1");
    }, 100);
    const stopped = () => socket.destroy();
    stop.addEventListener("abort", stopped, { once: true });
    await done;
    stop.removeEventListener("abort", stopped);
    clearInterval(trickle);
    if (status()) count(into, status());
    // Cut off by the end of the load before its answer came: neither served nor refused.
    else if (!stop.aborted) into.errors += 1;
    if (status() === 429) await sleep(1000);
  }
}

/** Requests one after another, each read whole, until `stop`. */
async function client(
  port: number,
  stop: AbortSignal,
  into: Outcomes,
  request: (n: number) => { path: string; init: RequestInit },
): Promise<void> {
  for (let n = 0; !stop.aborted; n += 1) {
    const { path: target, init } = request(n);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${target}`, { ...init, signal: stop });
      await response.arrayBuffer();
      count(into, response.status);
      if (response.status === 429) await sleep(1000);
    } catch {
      if (!stop.aborted) into.errors += 1;
    }
  }
}

const NEWEST = Date.parse("2026-01-01T00:00:00Z");
const DAY_MS = 86_400_000;
const dayBefore = (days: number) => new Date(NEWEST - days * DAY_MS).toISOString().slice(0, 10);

/** GET /orders of 500 in a window of days no earlier request named, so that none is answered from the cache. */
function uncachedPage(apiKey: string, offset: number) {
  return (n: number) => {
    const k = n * PAGE_CONNECTIONS + offset;
    const end = k % 600;
    const start = end + 60 + Math.floor(k / 600);
    return {
      path: `/api/public/buyer/v1/orders?limit=500&created_at_from=${dayBefore(start)}&created_at_to=${dayBefore(end)}`,
      init: { headers: { "x-api-key": apiKey, "accept-encoding": "identity" } },
    };
  };
}

function smallReads(apiKey: string) {
  return (n: number): { path: string; init: RequestInit } =>
    n % 2 === 0
      ? { path: "/api/public/buyer/v1/orders?limit=20", init: { headers: { "x-api-key": apiKey } } }
      : {
          path: "/graphql",
          init: {
            method: "POST",
            headers: { "x-api-key": apiKey, "content-type": "application/json" },
            body: JSON.stringify({
              query: "{ orders(first: 20) { edges { node { id orderStatus priceTotal } } } }",
            }),
          },
        };
}

async function attack(port: number, dataset: Dataset) {
  const stop = new AbortController();
  const slow = outcomes();
  const pages = outcomes();
  const small = outcomes();
  const running = [
    ...Array.from({ length: SLOW_READERS }, () => slowReader(port, dataset.apiKey, stop.signal, slow)),
    ...Array.from({ length: PAGE_CONNECTIONS }, (_, offset) =>
      client(port, stop.signal, pages, uncachedPage(dataset.referenceApiKey, offset)),
    ),
    ...Array.from({ length: SMALL_CONNECTIONS }, () =>
      client(port, stop.signal, small, smallReads(dataset.referenceApiKey)),
    ),
  ];
  return {
    async stop() {
      stop.abort();
      await Promise.all(running);
      return { slow, pages, small };
    },
  };
}

log(`creating ${DATABASE} and generating the bench dataset...`);
const databaseUrl = `${ADMIN_URL.replace(/\/[^/]*$/, "")}/${DATABASE}`;
await recreateDatabase(ADMIN_URL, DATABASE);
await migrate(databaseUrl);
const dataset = await seedDataset(databaseUrl);
log("building (npm run build)...");
execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
const logFile = path.join(os.tmpdir(), `bpa-memory-recovery-${process.pid}.log`);
const server = await startServer({
  name: "gateway",
  cwd: root,
  args: ["dist/src/server.js"],
  env: {
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    WEB_CONCURRENCY: "2",
    NODE_ENV: "production",
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    LOG_LEVEL: "warn",
    // Counting stays; refusing for the rate would hide the load.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  },
  logFile,
});
try {
  const workers = childrenOf(server.pid);
  log(`gateway: primary ${server.pid}, workers ${workers.join(", ")}; log ${logFile}`);
  const probe = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
    method: "POST",
    headers: {
      "x-api-key": dataset.apiKey,
      "content-type": "application/json",
      "accept-encoding": "identity",
    },
    body: JSON.stringify({ query: LARGEST_QUERY }),
  });
  const probeText = await probe.text();
  if (probe.status !== 200 || probeText.includes('"errors"'))
    throw new Error(`the largest query is refused: ${probe.status} ${probeText.slice(0, 400)}`);
  log(`largest GraphQL answer: ${(Buffer.byteLength(probeText) / MB).toFixed(1)} MB`);
  await settle(server.pid);
  const start = residentSets(server.pid, workers);
  for (const pid of workers) resetPeak(pid);

  log(
    `load: ${SLOW_READERS} slow readers, ${PAGE_CONNECTIONS} page clients, ${SMALL_CONNECTIONS} small-read clients for ${LOAD_SECONDS} s`,
  );
  const samples: number[][] = [];
  const sample = () => samples.push(residentSets(server.pid, workers).workers);
  const sampler = setInterval(sample, 1000);
  const load = await attack(server.port, dataset);
  await sleep(LOAD_SECONDS * 1000);
  const results = await load.stop();
  const stopped = residentSets(server.pid, workers);
  const peaks = workers.map((pid) => mb(statusKb(pid, "VmHWM")));
  log(`load stopped; waiting ${AFTER_SECONDS} s`);
  await sleep(AFTER_SECONDS * 1000);
  clearInterval(sampler);
  const after = residentSets(server.pid, workers);
  const highest = workers.map((_, index) =>
    Math.max(peaks[index] ?? 0, ...samples.map((row) => row[index] ?? 0)),
  );

  const grew = total(after) - total(start);
  const recovered = grew <= GOAL_RECOVERED_MIB;
  const bounded = highest.every((peak) => peak <= GOAL_WORKER_PEAK_MIB);
  const sets = (value: { primary: number; workers: number[] }) =>
    `${fixed(total(value))} MB (primary ${fixed(value.primary)}, workers ${value.workers.map(fixed).join(" / ")})`;
  console.log(
    `\nMemory recovery: 2 workers on PostgreSQL, ${LOAD_SECONDS} s of load, then ${AFTER_SECONDS} s idle`,
  );
  console.log(`slow readers (largest GraphQL answer, one key)  ${describe(results.slow)}`);
  console.log(`500-order pages, uncached (another key)         ${describe(results.pages)}`);
  console.log(`small reads (REST and GraphQL)                  ${describe(results.small)}`);
  console.log(`RSS at the start               ${sets(start)}`);
  console.log(`peak RSS per worker            ${highest.map(fixed).join(" / ")} MB (VmHWM)`);
  console.log(`RSS when the load stopped      ${sets(stopped)}`);
  console.log(`RSS ${AFTER_SECONDS} s after the load     ${sets(after)}`);
  console.log(
    `goal: RSS back within ${GOAL_RECOVERED_MIB} MB of the start ${AFTER_SECONDS} s after the load stops: ${grew >= 0 ? "+" : ""}${fixed(grew)} MB — ${recovered ? "met" : "MISSED"}`,
  );
  console.log(
    `goal: no worker above ${GOAL_WORKER_PEAK_MIB / 1024} GB at any time: highest ${fixed(Math.max(...highest))} MB — ${bounded ? "met" : "MISSED"}`,
  );
  process.exitCode = recovered && bounded ? 0 : 1;
} finally {
  await server.stop();
  await dropDatabase(ADMIN_URL, DATABASE);
}
