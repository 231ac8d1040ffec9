import pg from "pg";
import { type Dataset, growForScale, type ScaleInfo } from "./dataset.js";
import { type ExplainResult, explainPages } from "./explain.js";
import { scaleRatios } from "./goals.js";
import type { LoadOptions } from "./load.js";
import type { ServerProcess } from "./processes.js";
import type { Cell, Ratio } from "./report.js";
import { type Job, runRounds, warmUp } from "./run.js";
import { SCENARIOS, type ScenarioContext, sortedListScenarios } from "./scenarios.js";

export interface ScaleResult {
  info: ScaleInfo;
  cells: Cell[];
  ratios: Ratio[];
  explain: ExplainResult[];
}

const SCALED_SCENARIOS = ["list-orders", "list-orders-filtered"];

/** The supplier with the most orders of a buyer: its `supplier:` search reads a real share of the list. */
async function busiestSupplier(databaseUrl: string, buyerId: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ supplier_id: string }>(
      "SELECT supplier_id FROM orders WHERE buyer_id = $1 GROUP BY supplier_id ORDER BY count(*) DESC LIMIT 1",
      [buyerId],
    );
    return rows[0]?.supplier_id ?? "";
  } finally {
    await client.end();
  }
}

/**
 * `--scale`: grows the table, then measures the gateway's GET /orders and
 * the sorted and searched GraphQL order lists for the measured buyer (now most of a million orders) and for a buyer with 10,000,
 * alternating in the same rounds. Index range scans should make the page
 * cost independent of how many rows lie beyond it.
 */
export async function runScaleStep(options: {
  root: string;
  appBaseUrl: string;
  databaseUrl: string;
  dataset: Dataset;
  gateway: ServerProcess;
  runTag: string;
  rounds: number;
  warmupSeconds: number;
  load: LoadOptions;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const { dataset, gateway, log } = options;
  log("scale: growing the orders table...");
  const info = await growForScale(options.databaseUrl, dataset);
  log(
    `scale: ${info.ordersInTable.toLocaleString("en-US")} orders in the table; measured buyer ` +
      `${info.measuredBuyerOrders.toLocaleString("en-US")}, reference buyer ` +
      `${info.referenceBuyerOrders.toLocaleString("en-US")} (${info.seconds} s)`,
  );
  const contexts: { id: string; label: string; context: ScenarioContext }[] = [
    {
      id: "large",
      label: `gateway REST, buyer with ${info.measuredBuyerOrders.toLocaleString("en-US")} orders`,
      context: { apiKey: dataset.apiKey, orderIds: dataset.orderIds, runTag: options.runTag },
    },
    {
      id: "small",
      label: `gateway REST, buyer with ${info.referenceBuyerOrders.toLocaleString("en-US")} orders`,
      context: { apiKey: dataset.referenceApiKey, orderIds: [], runTag: options.runTag },
    },
  ];
  const suppliers = new Map([
    [dataset.apiKey, await busiestSupplier(options.databaseUrl, dataset.buyerId)],
    [dataset.referenceApiKey, await busiestSupplier(options.databaseUrl, dataset.referenceBuyerId)],
  ]);
  const scenarios = [
    ...SCENARIOS.filter((scenario) => SCALED_SCENARIOS.includes(scenario.id)),
    ...sortedListScenarios((context) => suppliers.get(context.apiKey) ?? ""),
  ];
  const explain = await explainPages({
    root: options.root,
    databaseUrl: options.databaseUrl,
    appBaseUrl: options.appBaseUrl,
    scenarios,
    callers: contexts,
  });
  const groups: Job[][] = scenarios.map((scenario) =>
    contexts.map(({ id, label, context }) => ({
      cell: {
        scenario: scenario.id,
        scenarioLabel: scenario.label,
        target: id,
        targetLabel: label,
        rounds: [],
        responseBytes: null,
      },
      port: gateway.port,
      pid: gateway.pid,
      plan: scenario.plan("rest", context),
    })),
  );
  await warmUp(groups, options.warmupSeconds, options.load);
  await runRounds(groups, options.rounds, options.load, log);
  const cells = groups.flat().map((job) => job.cell);
  const ratios = scaleRatios(
    info,
    scenarios,
    { large: contexts[0]?.label ?? "", small: contexts[1]?.label ?? "" },
    groups.map((group): [Cell | undefined, Cell | undefined] => [group[0]?.cell, group[1]?.cell]),
    explain,
  );
  return { info, cells, ratios, explain };
}
