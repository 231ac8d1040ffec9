// The goals table of docs/design/performance.md, written from the goals the
// bench judges (bench/goal-list.ts) and the last value each line reached
// (bench/last-goals.json, which every `npm run bench` updates with the lines
// it measured). `npm run bench:goals` rewrites the table; a test fails when
// it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../src/project-root.js";
import { everyJudgedGoal } from "./goal-list.js";
import type { Ratio } from "./report.js";
import { SCENARIOS, sortedListScenarios } from "./scenarios.js";

export const GOALS_START =
  "<!-- goals: written by npm run bench:goals from bench/goals.ts and bench/last-goals.json -->";
export const GOALS_END = "<!-- end of goals -->";
export const LAST_GOALS_FILE = path.join("bench", "last-goals.json");
export const PERFORMANCE_DOC = path.join("docs", "design", "performance.md");

/** The last value a goal's line reached; `measuredAt` is null for a value kept from before the file. */
export interface GoalResult {
  target: string;
  value: number | null;
  pass: boolean | null;
  perRound: number[];
  measuredAt: string | null;
}

export type LastGoals = Record<string, GoalResult>;

export function readLastGoals(root = projectRoot()): LastGoals {
  return JSON.parse(readFileSync(path.join(root, LAST_GOALS_FILE), "utf8")) as LastGoals;
}

/** The report with a run's judged lines in place of the values they had; lines it did not measure stay. */
export function withRun(last: LastGoals, ratios: readonly Ratio[], measuredAt: string): LastGoals {
  const next: LastGoals = { ...last };
  for (const ratio of ratios) {
    if (ratio.goal === "—" || ratio.value === null) continue;
    next[ratio.name] = {
      target: ratio.goal,
      value: ratio.value,
      pass: ratio.pass,
      perRound: ratio.perRound,
      measuredAt,
    };
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
}

const MEASURES = [", req/s", ", by CPU per request (server + PostgreSQL)", ", by Node CPU per request"];
const literalPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Scenario labels, longest first, so that a label is never taken for the start of a longer one. */
const LABELS = [...SCENARIOS, ...sortedListScenarios(() => "")]
  .map((scenario) => scenario.label)
  .sort((a, b) => b.length - a.length);

/**
 * A line's goal, shared by the lines that differ only in scenario, measure or
 * dataset size ("…" stands for those), and what this line puts there.
 */
export function goalOf(name: string): { goal: string; detail: string[] } {
  const detail: string[] = [];
  let goal = name;
  for (const measure of MEASURES) {
    if (goal.endsWith(measure)) {
      goal = `${goal.slice(0, -measure.length)}, …`;
      detail.push(measure.slice(2).replace(" (server + PostgreSQL)", ""));
    }
  }
  for (const label of LABELS) {
    const slot = new RegExp(`(?<=, |^p99 )${literalPattern(label)}(?=,|:|$)`);
    if (slot.test(goal)) {
      goal = goal.replace(slot, "…");
      detail.unshift(`\`${label}\``);
    }
  }
  return { goal: goal.replace(/\d{1,3}(,\d{3})+/g, "…").replace(/…(, …)+/g, "…"), detail };
}

const cell = (text: string) => text.replaceAll("|", "\\|");
const shown = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** How far a value is from failing its target: the lower, the worse. */
function margin(target: string, value: number): number {
  return target.startsWith("≥") ? value : -value;
}

export function goalsTable(goals: readonly Ratio[], last: LastGoals): string {
  const rows = new Map<
    string,
    { goal: string; target: string; lines: { detail: string[]; result: GoalResult }[] }
  >();
  const add = (name: string, target: string) => {
    const { goal, detail } = goalOf(name);
    const key = `${goal}\n${target}`;
    const row = rows.get(key) ?? { goal, target, lines: [] };
    rows.set(key, row);
    const result = last[name];
    if (result && result.value !== null && !row.lines.some((line) => line.detail.join() === detail.join()))
      row.lines.push({ detail, result });
  };
  for (const ratio of goals) add(ratio.name, ratio.goal);
  // Lines the bench reported that no enumerated goal names (another phase's goals, or sizes of another run).
  for (const [name, result] of Object.entries(last)) add(name, result.target);
  const lines = ["| goal | target | current | met |", "|---|---|---|---|"];
  for (const { goal, target, lines: measured } of rows.values()) {
    if (measured.length === 0) {
      lines.push(`| ${cell(goal)} | ${target} | not measured | — |`);
      continue;
    }
    const sorted = measured.toSorted(
      (a, b) => margin(target, a.result.value ?? 0) - margin(target, b.result.value ?? 0),
    );
    const [worst, ...others] = sorted as [(typeof sorted)[0], ...typeof sorted];
    const values = others.map((line) => line.result.value ?? 0);
    const low = shown(Math.min(...values));
    const high = shown(Math.max(...values));
    const rest =
      others.length === 0
        ? ""
        : others.length <= 2
          ? `; ${others.map((line) => `${shown(line.result.value ?? 0)} ${line.detail.join(", ")}`.trim()).join("; ")}`
          : `; ${low === high ? low : `${low}–${high}`} for the other ${others.length}`;
    const detail = worst.detail.length > 0 || rest ? ` (${worst.detail.join(", ")}${rest})` : "";
    const met = measured.every((line) => line.result.pass === true) ? "yes" : "no";
    lines.push(
      `| ${cell(goal)} | ${target} | ${cell(`${shown(worst.result.value ?? 0)}${detail}`)} | ${met} |`,
    );
  }
  return lines.join("\n");
}

/** The document with the text between its markers replaced by the table. */
export function withGoalsTable(document: string, table: string): string {
  const start = document.indexOf(GOALS_START);
  const end = document.indexOf(GOALS_END);
  if (start < 0 || end < start) throw new Error(`no ${GOALS_START} … ${GOALS_END} in ${PERFORMANCE_DOC}`);
  return `${document.slice(0, start + GOALS_START.length)}\n\n${table}\n\n${document.slice(end)}`;
}

/** The performance page as the goals and the last report make it. */
export function currentPerformanceDoc(root = projectRoot()): string {
  const document = readFileSync(path.join(root, PERFORMANCE_DOC), "utf8");
  return withGoalsTable(document, goalsTable(everyJudgedGoal(), readLastGoals(root)));
}

/** After a bench run: keep its judged lines and rewrite the table. */
export function recordRun(ratios: readonly Ratio[], measuredAt: string, root = projectRoot()): void {
  writeFileSync(
    path.join(root, LAST_GOALS_FILE),
    `${JSON.stringify(withRun(readLastGoals(root), ratios, measuredAt), null, 2)}\n`,
  );
  writeFileSync(path.join(root, PERFORMANCE_DOC), currentPerformanceDoc(root));
}
