import type { Measurement } from "./load.js";
import type { QueryCount } from "./query-count.js";
import type { ScenarioId } from "./scenarios.js";
import { median, round } from "./stats.js";

/** Every round's measurement of one scenario on one target. */
export interface Cell {
  scenario: ScenarioId;
  scenarioLabel: string;
  target: string;
  targetLabel: string;
  rounds: Measurement[];
  responseBytes: number | null;
}

export interface CellSummary {
  scenario: ScenarioId;
  scenarioLabel: string;
  target: string;
  targetLabel: string;
  requestsPerSecond: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  serverCpuMsPerRequest: number | null;
  databaseCpuMsPerRequest: number | null;
  sqlPerRequest: number | null;
  responseBytes: number | null;
  peakRssMb: number | null;
  non2xx: number;
  errors: number;
  rounds: Measurement[];
}

export interface Ratio {
  name: string;
  /** Median of the per-round ratios: both sides of each ratio were measured in the same round. */
  value: number | null;
  goal: string;
  pass: boolean | null;
  perRound: number[];
}

export function summarise(cells: Cell[], queryCounts: QueryCount[]): CellSummary[] {
  return cells.map((cell) => {
    const pick = (metric: (m: Measurement) => number | null) =>
      median(cell.rounds.map(metric).filter((value): value is number => value !== null));
    return {
      scenario: cell.scenario,
      scenarioLabel: cell.scenarioLabel,
      target: cell.target,
      targetLabel: cell.targetLabel,
      requestsPerSecond: round(
        pick((m) => m.requestsPerSecond),
        1,
      ),
      p50Ms: round(
        pick((m) => m.p50Ms),
        1,
      ),
      p99Ms: round(
        pick((m) => m.p99Ms),
        1,
      ),
      serverCpuMsPerRequest: round(
        pick((m) => m.serverCpuMsPerRequest),
        2,
      ),
      databaseCpuMsPerRequest: round(
        pick((m) => m.databaseCpuMsPerRequest ?? null),
        2,
      ),
      sqlPerRequest:
        queryCounts.find((count) => count.scenario === cell.scenario && count.target === cell.target)
          ?.count ?? null,
      responseBytes: cell.responseBytes,
      peakRssMb: round(
        pick((m) => m.peakRssMb),
        0,
      ),
      non2xx: cell.rounds.reduce((sum, m) => sum + m.non2xx, 0),
      errors: cell.rounds.reduce((sum, m) => sum + m.errors, 0),
      rounds: cell.rounds,
    };
  });
}

/**
 * `combine(numerator, denominator)` of a metric in each round in which both
 * sides have it: a comparison never mixes numbers from different rounds.
 */
export function perRound(
  numerator: Cell | undefined,
  denominator: Cell | undefined,
  metric: (m: Measurement) => number,
  combine: (top: number, bottom: number) => number,
): number[] {
  const values: number[] = [];
  if (!numerator || !denominator) return values;
  const rounds = Math.min(numerator.rounds.length, denominator.rounds.length);
  for (let index = 0; index < rounds; index += 1) {
    const value = combine(
      metric(numerator.rounds[index] as Measurement),
      metric(denominator.rounds[index] as Measurement),
    );
    if (Number.isFinite(value)) values.push(value);
  }
  return values;
}

/** The median of per-round values, judged against a goal. */
export function judged(
  name: string,
  rounds: number[],
  goal: { atLeast?: number; atMost?: number },
  digits = 2,
): Ratio {
  const value = round(median(rounds), digits);
  const hasGoal = goal.atLeast !== undefined || goal.atMost !== undefined;
  const pass =
    value === null || !hasGoal
      ? null
      : (goal.atLeast === undefined || value >= goal.atLeast) &&
        (goal.atMost === undefined || value <= goal.atMost);
  const goalText = [
    goal.atLeast !== undefined ? `≥ ${goal.atLeast}` : "",
    goal.atMost !== undefined ? `≤ ${goal.atMost}` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return {
    name,
    value,
    goal: goalText || "—",
    pass,
    perRound: rounds.map((entry) => round(entry, 3) ?? 0),
  };
}

/** `numerator / denominator` of a metric in each round, then the median of those. */
export function ratio(
  name: string,
  numerator: Cell | undefined,
  denominator: Cell | undefined,
  metric: (m: Measurement) => number,
  goal: { atLeast?: number; atMost?: number },
): Ratio {
  const quotient = (top: number, bottom: number) => (bottom > 0 ? top / bottom : Number.NaN);
  return judged(name, perRound(numerator, denominator, metric, quotient), goal);
}

const fixed = (value: number | null, digits = 0) =>
  value === null
    ? "—"
    : value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Markdown, so the same text reads on a terminal and pastes into docs/design/performance.md. */
export function resultTable(summaries: CellSummary[]): string {
  const lines = [
    "| scenario | server | req/s | p50 ms | p99 ms | SQL/req | server CPU ms/req | PostgreSQL CPU ms/req | KB/resp | peak RSS MB | non-2xx |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  let previous = "";
  for (const row of summaries) {
    const scenario = row.scenarioLabel === previous ? "" : row.scenarioLabel;
    previous = row.scenarioLabel;
    lines.push(
      `| ${scenario} | ${row.targetLabel} | ${fixed(row.requestsPerSecond, 1)} | ${fixed(row.p50Ms, 1)} | ` +
        `${fixed(row.p99Ms, 1)} | ${fixed(row.sqlPerRequest)} | ${fixed(row.serverCpuMsPerRequest, 2)} | ` +
        `${fixed(row.databaseCpuMsPerRequest, 2)} | ` +
        `${row.responseBytes === null ? "—" : fixed(row.responseBytes / 1024, 1)} | ${fixed(row.peakRssMb)} | ${row.non2xx + row.errors} |`,
    );
  }
  return lines.join("\n");
}

export function ratioTable(ratios: Ratio[]): string {
  const lines = ["| ratio | value | goal | met | per round |", "|---|---:|---|---|---|"];
  for (const entry of ratios) {
    const met = entry.pass === null ? "—" : entry.pass ? "yes" : "**no**";
    lines.push(
      `| ${entry.name} | ${entry.value === null ? "—" : entry.value.toFixed(2)} | ${entry.goal} | ${met} | ${entry.perRound.map((value) => value.toFixed(2)).join(", ")} |`,
    );
  }
  return lines.join("\n");
}

export function processTable(processes: { name: string; peakRssKb: number | null }[]): string {
  const lines = ["| process | peak RSS (VmHWM) MB |", "|---|---:|"];
  for (const entry of processes) {
    lines.push(`| ${entry.name} | ${entry.peakRssKb === null ? "—" : fixed(entry.peakRssKb / 1024, 0)} |`);
  }
  return lines.join("\n");
}
