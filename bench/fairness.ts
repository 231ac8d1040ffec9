import { loadavg } from "node:os";
import type { Dataset } from "./dataset.js";
import { type LoadOptions, type Measurement, measure } from "./load.js";
import type { ServerProcess } from "./processes.js";
import type { Ratio } from "./report.js";
import type { RequestPlan } from "./scenarios.js";

/** One key's flood: concurrent 500-order pages, each asking for a window no other request asked for, so none is cached. */
const FLOOD_CONNECTIONS = 16;
/** The other buyer: a few clients reading small pages, also never cached. */
const OTHER_CONNECTIONS = 4;
const NEWEST = Date.parse("2026-01-01T00:00:00Z");
const DAY_MS = 86_400_000;
/** Days of the dataset's two years a window may end on. */
const END_DAYS = 600;

/** `YYYY-MM-DD`, `days` before the newest order. */
const dayBefore = (days: number) => new Date(NEWEST - days * DAY_MS).toISOString().slice(0, 10);

/** Node and PostgreSQL CPU per request, ms. */
function cpuOf(measurement: Measurement): string {
  const ms = (value: number | null) => (value === null ? "n/a" : value.toFixed(2));
  return `${ms(measurement.serverCpuMsPerRequest)}/${ms(measurement.databaseCpuMsPerRequest)} ms`;
}

export interface FairnessRun {
  /** Which gateway: the bounds on expensive work as configured, or lifted. */
  bound: string;
  alone: Measurement;
  beside: Measurement;
  flood: Measurement;
  /** The machine's one-minute load average at the end of the kept alone measurement, and of the flood's. */
  loadAverage: { alone: number; beside: number };
}

export interface FairnessResult {
  runs: FairnessRun[];
  ratios: Ratio[];
}

/**
 * GET /orders of `limit` items in a window of days no earlier request named
 * (its end and its length vary), so that none is answered from the cache.
 */
function uncachedPages(apiKey: string, limit: number, connections: number): RequestPlan {
  return {
    method: "GET",
    headers: { "x-api-key": apiKey, "accept-encoding": "br" },
    connections,
    build: (n) => {
      const end = n % END_DAYS;
      const start = end + 60 + Math.floor(n / END_DAYS);
      return {
        path: `/api/public/buyer/v1/orders?limit=${limit}&created_at_from=${dayBefore(start)}&created_at_to=${dayBefore(end)}`,
      };
    },
  };
}

/**
 * One key's flood beside another buyer: the other buyer's p99 alone (before
 * and after) and beside 16 concurrent uncached 500-order pages from the
 * measured key, on a
 * gateway of two workers. Run on each gateway given (bound on, bound off),
 * within one round each, so that the ratio compares like with like on a
 * shared machine.
 */
export async function runFairness(options: {
  gateways: { bound: string; server: ServerProcess }[];
  dataset: Dataset;
  seconds: number;
  load: LoadOptions;
  log: (line: string) => void;
}): Promise<FairnessResult> {
  const { dataset, seconds, load, log } = options;
  const runs: FairnessRun[] = [];
  const timed = { ...load, seconds };
  for (const { bound, server } of options.gateways) {
    const target = { port: server.port, pid: server.pid };
    const other = uncachedPages(dataset.referenceApiKey, 20, OTHER_CONNECTIONS);
    const flood = uncachedPages(dataset.apiKey, 500, FLOOD_CONNECTIONS);
    // Warm: the plans made, pools open.
    await measure(target, other, { ...timed, seconds: 2 });
    // Read at the end of each window: a machine busy with other work shows here, not only in the p99s.
    const oneMinuteLoad = () => loadavg()[0] ?? 0;
    const before = await measure(target, other, timed);
    const loadBefore = oneMinuteLoad();
    const [beside, flooding] = await Promise.all([
      measure(target, other, timed),
      measure(target, flood, timed),
    ]);
    const loadBeside = oneMinuteLoad();
    // Alone before and after the flood, the lower p99 kept: a busy machine's spike makes no ratio look better.
    const after = await measure(target, other, timed);
    const loadAfter = oneMinuteLoad();
    const alone = after.p99Ms < before.p99Ms ? after : before;
    const loadAverage = { alone: alone === after ? loadAfter : loadBefore, beside: loadBeside };
    log(
      `fairness (${bound}): other buyer p99 ${alone.p99Ms} ms alone (load average ${loadAverage.alone.toFixed(2)}), ` +
        `${beside.p99Ms} ms beside the flood (load average ${loadAverage.beside.toFixed(2)}) ` +
        `(${alone.non2xx + beside.non2xx} not 2xx); flood ${flooding.requests} pages served, ${flooding.non2xx} refused; ` +
        `CPU per request, Node/PostgreSQL: other buyer alone ${cpuOf(alone)}, ` +
        // Both measurements of the flood's window read the same process: its CPU is both buyers' work.
        `flood window per flood page ${cpuOf(flooding)}`,
    );
    runs.push({ bound, alone, beside, flood: flooding, loadAverage });
  }
  const ratios = runs.map(({ bound, alone, beside }) => {
    // The other buyer's answers must all be pages: a p99 of refusals says nothing.
    const served = alone.non2xx + alone.errors + beside.non2xx + beside.errors === 0;
    const value = served && alone.p99Ms > 0 ? beside.p99Ms / alone.p99Ms : null;
    return {
      name: `other buyer's p99 beside one key's ${FLOOD_CONNECTIONS} uncached 500-order pages ÷ alone (${bound})`,
      value,
      goal: "≤ 2",
      pass: value === null ? null : value <= 2,
      perRound: value === null ? [] : [value],
    };
  });
  return { runs, ratios };
}
