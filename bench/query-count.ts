import { startInProcess } from "./in-process.js";
import { sendOnce } from "./load.js";
import { planOf, runsOn, type Scenario, type ScenarioContext, type Target } from "./scenarios.js";

export interface QueryCount {
  target: string;
  scenario: string;
  /** SQL statements sent for one request, after one warm-up request. */
  count: number;
  status: number;
  /** The start of each statement, to see what they are. */
  statements: string[];
}

export interface CountOptions {
  /** Checkout whose built code (dist/) runs the gateway and the peers. */
  root: string;
  /** Another checkout's build for the candidate target, when there is one. */
  candidateRoot: string | null;
  databaseUrl: string;
  appBaseUrl: string;
  targets: Target[];
  scenarios: Scenario[];
  context: ScenarioContext;
}

/**
 * Runs one request of each scenario through each target's code opened in
 * this process, counting the statements it sends. The floor sends none.
 */
export async function countQueries(options: CountOptions): Promise<QueryCount[]> {
  const statements: string[] = [];
  const counts: QueryCount[] = [];
  for (const processId of new Set(options.targets.map((target) => target.process))) {
    if (processId === "floor") {
      for (const target of options.targets.filter((candidate) => candidate.process === "floor")) {
        for (const scenario of options.scenarios.filter((candidate) => runsOn(target, candidate))) {
          counts.push({ target: target.id, scenario: scenario.id, count: 0, status: 200, statements: [] });
        }
      }
      continue;
    }
    // Tracing adds no SQL: the traced gateway sends what the gateway sends.
    const server = await startInProcess(processId === "gateway-traced" ? "gateway" : processId, {
      root: processId === "candidate" ? (options.candidateRoot ?? options.root) : options.root,
      databaseUrl: options.databaseUrl,
      appBaseUrl: options.appBaseUrl,
      onQuery: (sql) => statements.push(sql.replace(/\s+/g, " ").slice(0, 100)),
    });
    try {
      for (const target of options.targets.filter((candidate) => candidate.process === processId)) {
        for (const scenario of options.scenarios.filter((candidate) => runsOn(target, candidate))) {
          const plan = planOf(target, scenario, options.context);
          await plan.refresh?.(server.port);
          // A mix of documents is counted on its first, on every server alike.
          const n = plan.variants === undefined ? undefined : 0;
          await sendOnce(server.port, plan, n);
          // Fire-and-forget writes of the warm-up (last_used_at) must not land in the count.
          await new Promise((resolve) => setTimeout(resolve, 100));
          statements.length = 0;
          const { status } = await sendOnce(server.port, plan, n);
          counts.push({
            target: target.id,
            scenario: scenario.id,
            count: statements.length,
            status,
            statements: [...statements],
          });
        }
      }
    } finally {
      await server.close();
    }
  }
  return counts;
}
