import { type LoadOptions, type Measurement, measure } from "./load.js";
import type { Cell } from "./report.js";
import type { RequestPlan } from "./scenarios.js";

/** One scenario on one server: where to send it, what to send, where its rounds go. */
export interface Job {
  cell: Cell;
  port: number;
  pid: number;
  plan: RequestPlan;
  /** Set up the database for this job before it is measured, and back after (the unlogged target). */
  around?: { before(): Promise<void>; after(): Promise<void> };
}

async function measureJob(job: Job, load: LoadOptions): Promise<Measurement> {
  await job.around?.before();
  try {
    return await measure(job, job.plan, load);
  } finally {
    await job.around?.after();
  }
}

const describe = (m: Measurement) =>
  `${m.requestsPerSecond.toFixed(1)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms` +
  (m.serverCpuMsPerRequest === null ? "" : `, ${m.serverCpuMsPerRequest.toFixed(2)} CPU ms/req`) +
  (m.databaseCpuMsPerRequest === null ? "" : ` + ${m.databaseCpuMsPerRequest.toFixed(2)} in PostgreSQL`) +
  (m.peakRssMb === null ? "" : `, peak RSS ${m.peakRssMb.toFixed(0)} MB`) +
  (m.non2xx + m.errors > 0 ? `, ${m.non2xx} non-2xx, ${m.errors} errors` : "");

/** Unmeasured load on every job, so that round 1 does not pay for JIT compilation and cold caches. */
export async function warmUp(groups: Job[][], seconds: number, load: LoadOptions): Promise<void> {
  if (seconds <= 0) return;
  for (const group of groups) {
    for (const job of group) {
      await measureJob(job, { ...load, seconds });
    }
  }
}

/**
 * Rounds of every group (one scenario on several servers). Within a group the
 * servers take turns, and the order rotates each round, so that a slow patch
 * of the machine hits each server in turn rather than one of them.
 */
export async function runRounds(
  groups: Job[][],
  rounds: number,
  load: LoadOptions,
  log: (line: string) => void,
): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    for (const group of groups) {
      for (let index = 0; index < group.length; index += 1) {
        const job = group[(index + round) % group.length] as Job;
        const seconds = Math.max(load.seconds, job.plan.minSeconds ?? 0);
        const result = await measureJob(job, { ...load, seconds });
        job.cell.rounds.push(result);
        log(
          `round ${round + 1}/${rounds}  ${job.cell.scenarioLabel.padEnd(34)} ${job.cell.targetLabel.padEnd(30)} ${describe(result)}`,
        );
      }
    }
  }
}
