import pg from "pg";
import { startInProcess } from "./in-process.js";
import { sendOnce } from "./load.js";
import type { Scenario, ScenarioContext } from "./scenarios.js";
import { median, round } from "./stats.js";

export interface ExplainResult {
  scenario: string;
  label: string;
  /** PostgreSQL's own execution time of the page's statement, median of several EXPLAIN ANALYZE runs. */
  executionMs: number | null;
  planningMs: number | null;
  /** Indexes the plan reads, and its top node, to see whether the page is an index range. */
  indexes: string[];
  topNode: string;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function indexesOf(node: PlanNode, found: Set<string>): Set<string> {
  if (node["Index Name"]) found.add(node["Index Name"]);
  for (const child of node.Plans ?? []) indexesOf(child, found);
  return found;
}

const RUNS = 7;

/**
 * The statement the gateway sends for a page, captured in-process with its
 * parameters, then timed inside PostgreSQL with EXPLAIN ANALYZE: what the
 * database costs, free of the HTTP queueing that dominates p99 under load.
 */
export async function explainPages(options: {
  root: string;
  databaseUrl: string;
  appBaseUrl: string;
  scenarios: Scenario[];
  callers: { label: string; context: ScenarioContext }[];
}): Promise<ExplainResult[]> {
  const captured: { sql: string; params: string }[] = [];
  const server = await startInProcess("gateway", {
    root: options.root,
    databaseUrl: options.databaseUrl,
    appBaseUrl: options.appBaseUrl,
    onQuery: (sql, params) => captured.push({ sql, params }),
  });
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const results: ExplainResult[] = [];
  try {
    for (const scenario of options.scenarios) {
      for (const caller of options.callers) {
        captured.length = 0;
        await sendOnce(server.port, scenario.plan("rest", caller.context));
        // The page is the longest statement; the others are the key lookup and the rate-limit counter.
        const page = captured.reduce<{ sql: string; params: string } | null>(
          (longest, entry) => (longest && longest.sql.length >= entry.sql.length ? longest : entry),
          null,
        );
        if (!page) continue;
        const params = JSON.parse(page.params) as unknown[];
        const executions: number[] = [];
        const plannings: number[] = [];
        let plan: PlanNode | null = null;
        for (let run = 0; run < RUNS; run += 1) {
          const { rows } = await client.query<{
            "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number; "Planning Time": number }];
          }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${page.sql}`, params);
          const [explained] = rows[0]?.["QUERY PLAN"] ?? [];
          if (!explained) continue;
          executions.push(explained["Execution Time"]);
          plannings.push(explained["Planning Time"]);
          plan = explained.Plan;
        }
        results.push({
          scenario: scenario.id,
          label: `${scenario.label}, ${caller.label}`,
          executionMs: round(median(executions), 2),
          planningMs: round(median(plannings), 2),
          indexes: plan ? [...indexesOf(plan, new Set())] : [],
          topNode: plan?.["Node Type"] ?? "",
        });
      }
    }
  } finally {
    await client.end();
    await server.close();
  }
  return results;
}

export function explainTable(results: ExplainResult[]): string {
  const lines = [
    "| page statement | execution ms | planning ms | indexes read |",
    "|---|---:|---:|---|",
    ...results.map(
      (result) =>
        `| ${result.label} | ${result.executionMs ?? "—"} | ${result.planningMs ?? "—"} | ${result.indexes.join(", ")} |`,
    ),
  ];
  return lines.join("\n");
}
