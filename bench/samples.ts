import { isDeepStrictEqual } from "node:util";
import { rowsOf } from "./dashboard.js";
import { sendOnce } from "./load.js";
import type { CannedResponse } from "./peers/floor.js";
import type { Job } from "./run.js";
import type { Scenario, ScenarioContext } from "./scenarios.js";

/** The gateway's REST answer to each read, for the floor server to replay byte for byte. */
export async function captureCannedResponses(
  gatewayPort: number,
  scenarios: Scenario[],
  context: ScenarioContext,
): Promise<CannedResponse[]> {
  const canned: CannedResponse[] = [];
  const replayed = (scenario: Scenario) => !scenario.only || scenario.only.includes("floor");
  for (const scenario of scenarios.filter((candidate) => candidate.read && replayed(candidate))) {
    const plan = scenario.plan("rest", context);
    const response = await sendOnce(gatewayPort, plan);
    if (response.status >= 300) {
      throw new Error(
        `gateway answered ${scenario.label} with ${response.status}: ${response.body.toString().slice(0, 500)}`,
      );
    }
    canned.push({
      method: plan.method,
      target: response.path,
      status: response.status,
      contentType: response.contentType,
      ...(response.contentEncoding ? { contentEncoding: response.contentEncoding } : {}),
      bodyBase64: response.wireBody.toString("base64"),
    });
  }
  return canned;
}

/**
 * One request per job before anything is measured: every server must answer
 * every scenario with 2xx (a benchmark of error responses measures nothing),
 * and peer (b) must return the gateway's JSON for the reads.
 */
export async function checkJobs(groups: Job[][], log: (line: string) => void): Promise<void> {
  for (const group of groups) {
    await checkVariants(group, log);
    const bodies = new Map<string, unknown>();
    for (const job of group) {
      await job.plan.refresh?.(job.port);
      const response = await sendOnce(job.port, job.plan);
      if (response.status >= 300 && !(job.plan.notModifiedCounts && response.status === 304)) {
        throw new Error(
          `${job.cell.targetLabel} answered ${job.cell.scenarioLabel} with ${response.status}: ` +
            response.body.toString().slice(0, 500),
        );
      }
      // Bytes on the wire: coded when the scenario asks for a coding (a mix's are its documents' mean).
      if (job.plan.variants === undefined) job.cell.responseBytes = response.wireBody.length;
      try {
        bodies.set(job.cell.target, JSON.parse(response.body.toString()));
      } catch {
        // not JSON: nothing to compare
      }
    }
    // Writes touch a different order each time, so only reads can be compared.
    const gatewayJob = group.find((job) => job.cell.target === "rest");
    const gateway = bodies.get("rest");
    if (gatewayJob?.plan.method !== "GET" || gateway === undefined) continue;
    for (const [target, name] of [
      ["prisma", "(b)"],
      ["candidate", "the candidate"],
    ] as const) {
      const other = bodies.get(target);
      if (other === undefined) continue;
      log(
        isDeepStrictEqual(gateway, other)
          ? `check: ${name} returns the same JSON as the gateway for ${gatewayJob.cell.scenarioLabel}`
          : `WARNING: ${name} returns different JSON from the gateway for ${gatewayJob.cell.scenarioLabel}`,
      );
    }
  }
}

/**
 * A mix of documents (the dashboard) is checked document by document: no
 * server may answer one with errors, and every server must return as many
 * records and the same totals as the first of the group, whatever its schema.
 */
async function checkVariants(group: Job[], log: (line: string) => void): Promise<void> {
  const [first] = group;
  const variants = first?.plan.variants;
  if (!first || variants === undefined) return;
  const bytes = new Map<Job, number>();
  for (let n = 0; n < variants; n += 1) {
    const tallies: string[] = [];
    for (const job of group) {
      const response = await sendOnce(job.port, job.plan, n);
      bytes.set(job, (bytes.get(job) ?? 0) + response.wireBody.length);
      const tally = rowsOf(JSON.parse(response.body.toString()));
      if (response.status >= 300 || tally.errors > 0) {
        throw new Error(
          `${job.cell.targetLabel} answered document ${n + 1} of ${job.cell.scenarioLabel} with ${response.status}: ` +
            response.body.toString().slice(0, 500),
        );
      }
      tallies.push(`${job.cell.target}: ${tally.records} records, totals ${tally.totalCounts}`);
    }
    const same = tallies.every(
      (line) => line.slice(line.indexOf(":")) === tallies[0]?.slice(tallies[0].indexOf(":")),
    );
    log(
      `${same ? "check" : "WARNING"}: ${first.cell.scenarioLabel}, document ${n + 1}: ${tallies.join("; ")}`,
    );
  }
  for (const [job, total] of bytes) job.cell.responseBytes = Math.round(total / variants);
}
