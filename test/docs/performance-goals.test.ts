// The goals table of docs/design/performance.md is the bench's: a row for
// every goal bench/goals.ts judges, with its target, the last value its lines
// reached (bench/last-goals.json) and whether they all met it. No database,
// no server.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { everyJudgedGoal } from "../../bench/goal-list.js";
import {
  currentPerformanceDoc,
  goalOf,
  goalsTable,
  type LastGoals,
  PERFORMANCE_DOC,
  withRun,
} from "../../bench/goal-table.js";
import type { Ratio } from "../../bench/report.js";
import { projectRoot } from "../../src/project-root.js";

const GOALS = everyJudgedGoal();

interface GoalRow {
  goal: string;
  target: string;
  current: string;
  met: string;
}

function rowsOf(table: string): GoalRow[] {
  return table
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*(goal\s*\||-)/.test(line))
    .map((line) => {
      const [goal = "", target = "", current = "", met = ""] = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim());
      return { goal, target, current, met };
    });
}

const line = (name: string, value: number, goal: string, pass: boolean): Ratio => ({
  name,
  value,
  goal,
  pass,
  perRound: [value],
});

describe("docs/design/performance.md's goals", () => {
  it("is the table the bench's goals and its last report make (npm run bench:goals rewrites it)", () => {
    const document = readFileSync(path.join(projectRoot(), PERFORMANCE_DOC), "utf8");
    expect(document, `${PERFORMANCE_DOC} is stale: run npm run bench:goals`).toBe(currentPerformanceDoc());
  });

  it("has a row for every goal the bench judges, with the bench's target", () => {
    const rows = rowsOf(goalsTable(GOALS, {}));
    expect(GOALS.length).toBeGreaterThan(5);
    const missing = GOALS.filter(
      (ratio) => !rows.some((row) => row.goal === goalOf(ratio.name).goal && row.target === ratio.goal),
    );
    expect(missing.map((ratio) => ratio.name)).toEqual([]);
    expect(rows.every((row) => row.current === "not measured" && row.met === "—")).toBe(true);
  });

  it("shows a goal's worst line and says it is not met when one line misses it", () => {
    const [byRate, byCpu] = GOALS.filter((ratio) => ratio.name.includes("(c) SOFA"));
    if (!byRate || !byCpu) throw new Error("the bench judges no SOFA goal");
    const run = withRun(
      {},
      [line(byRate.name, 3.1, byRate.goal, true), line(byCpu.name, 2.2, byCpu.goal, false)],
      "t",
    );
    const row = rowsOf(goalsTable(GOALS, run)).find((entry) => entry.goal === goalOf(byRate.name).goal);
    expect(row).toMatchObject({ current: "2.20 (by CPU per request; 3.10 req/s)", met: "no" });
  });

  it("keeps the lines a later run did not measure, and takes the new value of those it did", () => {
    const [first, second] = GOALS;
    if (!first || !second) throw new Error("too few goals");
    const earlier: LastGoals = withRun(
      {},
      [line(first.name, 1, first.goal, true), line(second.name, 1, second.goal, true)],
      "a",
    );
    const later = withRun(earlier, [line(second.name, 7, second.goal, false)], "b");
    expect(later[first.name]).toEqual(earlier[first.name]);
    expect(later[second.name]).toMatchObject({ value: 7, pass: false, measuredAt: "b" });
  });

  it("lists a goal the report names beside those it enumerates, with the sizes of the run left out", () => {
    const name = "p99 GET /orders?limit=100: 2,000,000-row table, buyer with 1,234,567 orders vs 10,000";
    const run = withRun({}, [line(name, 1.2, "≤ 1.5", true)], "t");
    const row = rowsOf(goalsTable(GOALS, run)).find((entry) => entry.goal === goalOf(name).goal);
    expect(row).toMatchObject({ target: "≤ 1.5", current: "1.20 (`GET /orders?limit=100`)", met: "yes" });
  });
});
