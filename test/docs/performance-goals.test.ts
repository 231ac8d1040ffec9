// The goals docs/design/performance.md lists are the goals the bench judges
// (bench/goals.ts), with the same targets: every goal the bench judges has a
// row, no row names a goal the bench does not judge, and "met" agrees with the
// current value. The bench's goals are read off what it reports for a run in
// which every cell measured the same; no database, no server.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { goalRatios, scaleRatios } from "../../bench/goals.js";
import type { Measurement } from "../../bench/load.js";
import type { QueryCount } from "../../bench/query-count.js";
import type { Cell, Ratio } from "../../bench/report.js";
import { runsOn, SCENARIOS, type Scenario, sortedListScenarios, TARGETS } from "../../bench/scenarios.js";

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
function judgedGoals(): Ratio[] {
  const everyCell = SCENARIOS.flatMap((scenario) =>
    TARGETS.filter((target) => runsOn(target, scenario)).map((target) =>
      cellOf(scenario, target.id, target.label),
    ),
  );
  const counts: QueryCount[] = [
    ...SCENARIOS.filter((scenario) => scenario.read).map((scenario) => ({
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
    ...scale,
  ].filter((ratio) => ratio.goal !== "—");
}

interface GoalRow {
  goal: string;
  target: string;
  current: string;
  met: string;
}

/** The rows of the table under "## Goals" in docs/design/performance.md. */
function documentedGoals(): GoalRow[] {
  const doc = readFileSync(new URL("../../docs/design/performance.md", import.meta.url), "utf8");
  const section = doc.split(/^## /m).find((part) => part.startsWith("Goals\n")) ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*(goal\s*\||-)/.test(line))
    .map((line) => {
      const [goal = "", target = "", current = "", met = ""] = line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim());
      return { goal, target, current, met };
    });
}

/** A row's goal as a pattern: "…" stands for any text. */
function patternOf(goal: string): RegExp {
  const escaped = goal
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".+");
  return new RegExp(`^${escaped}$`);
}

const GOALS = judgedGoals();
const ROWS = documentedGoals();

describe("docs/design/performance.md's goals", () => {
  it("lists goals at all", () => {
    expect(ROWS.length).toBeGreaterThan(5);
    expect(GOALS.length).toBeGreaterThan(5);
  });

  it("has a row for every goal the bench judges, with the bench's target", () => {
    const wrong = GOALS.flatMap((ratio) => {
      const rows = ROWS.filter((row) => patternOf(row.goal).test(ratio.name));
      if (rows.length === 0) return [`no row for "${ratio.name}" (${ratio.goal})`];
      return rows
        .filter((row) => row.target !== ratio.goal)
        .map((row) => `"${row.goal}" says ${row.target}, the bench ${ratio.goal}`);
    });
    expect(wrong).toEqual([]);
  });

  it("names no goal the bench does not judge", () => {
    const unknown = ROWS.filter((row) => !GOALS.some((ratio) => patternOf(row.goal).test(ratio.name)));
    expect(unknown.map((row) => row.goal)).toEqual([]);
  });

  it('says "met" exactly when the current value reaches the target', () => {
    const wrong = ROWS.flatMap((row) => {
      const value = /^[+−-]?\d+(\.\d+)?/.exec(row.current)?.[0];
      const bound = /^([≥≤]) (\d+(\.\d+)?)$/.exec(row.target);
      if (value === undefined || !bound)
        return row.met === "—" ? [] : [`"${row.goal}": no value, met ${row.met}`];
      const number = Number(value.replace("−", "-"));
      const reached = bound[1] === "≥" ? number >= Number(bound[2]) : number <= Number(bound[2]);
      return row.met === (reached ? "yes" : "no")
        ? []
        : [`"${row.goal}": ${row.current} against ${row.target}, met ${row.met}`];
    });
    expect(wrong).toEqual([]);
  });
});
