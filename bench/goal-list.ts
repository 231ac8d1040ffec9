// Every goal the bench judges, read off what it reports for a run in which
// every cell measured the same: the goals of bench/goals.ts for every
// scenario and target, without a database or a server. The goals table of
// docs/design/performance.md has a row for each.
import { goalRatios, scaleRatios } from "./goals.js";
import type { Measurement } from "./load.js";
import type { QueryCount } from "./query-count.js";
import type { Cell, Ratio } from "./report.js";
import { runsOn, SCENARIOS, type Scenario, sortedListScenarios, TARGETS } from "./scenarios.js";

const SAME: Measurement = {
  requestsPerSecond: 100,
  p50Ms: 10,
  p99Ms: 20,
  requests: 1000,
  non2xx: 0,
  errors: 0,
  serverCpuMsPerRequest: 1,
  databaseCpuMsPerRequest: 1,
  peakRssMb: 500,
};

function cellOf(scenario: Scenario, target: string, targetLabel = target): Cell {
  return {
    scenario: scenario.id,
    scenarioLabel: scenario.label,
    target,
    targetLabel,
    rounds: [SAME, SAME],
    responseBytes: 1000,
  };
}

/** Every line the bench judges against a target, as a full run and the runs of their own would report them. */
export function everyJudgedGoal(): Ratio[] {
  const everyCell = SCENARIOS.flatMap((scenario) =>
    TARGETS.filter((target) => runsOn(target, scenario)).map((target) =>
      cellOf(scenario, target.id, target.label),
    ),
  );
  const rest = TARGETS.find((target) => target.id === "rest");
  const counts: QueryCount[] = [
    ...SCENARIOS.filter((scenario) => scenario.read && rest && runsOn(rest, scenario)).map((scenario) => ({
      target: "rest",
      scenario: scenario.id,
      count: 2,
      status: 200,
      statements: [],
    })),
    { target: "graphql-uncached", scenario: "list-orders", count: 2, status: 200, statements: [] },
  ];
  // The cache's memory is judged only when its two processes served nothing else.
  const memoryRun = everyCell.filter((cell) => cell.scenario === "list-orders-many-pages");
  const ordersMemoryRun = everyCell.filter(
    (cell) => cell.scenario === "list-orders" && ["rest-uncached", "prisma"].includes(cell.target),
  );
  const scaled = [...SCENARIOS.filter((scenario) => scenario.read), ...sortedListScenarios(() => "")];
  const callers = { large: "buyer with 803,877 orders", small: "buyer with 10,000 orders" };
  const scale = scaleRatios(
    { ordersInTable: 1_000_000, measuredBuyerOrders: 803_877, referenceBuyerOrders: 10_000, seconds: 0 },
    scaled,
    callers,
    scaled.map((scenario) => [cellOf(scenario, callers.large), cellOf(scenario, callers.small)]),
    [],
  );
  return [
    ...goalRatios(everyCell, counts, SCENARIOS),
    ...goalRatios(memoryRun, [], SCENARIOS),
    ...goalRatios(ordersMemoryRun, [], SCENARIOS),
    ...scale,
  ].filter((ratio) => ratio.goal !== "—");
}
