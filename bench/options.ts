import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { NAMED_SCENARIOS, SCENARIOS, TARGETS } from "./scenarios.js";

export interface BenchOptions {
  seconds: number;
  rounds: number;
  warmup: number;
  connections: number;
  targets: string[];
  scenarios: string[];
  candidate: string | null;
  /** Node.js binary for the candidate's server; null: the one running the bench. */
  candidateNode: string | null;
  scale: boolean;
  /** False with --no-fairness: no "one key's flood beside another buyer" phase. */
  fairness: boolean;
  cpuProf: boolean;
  build: boolean;
  /** False with --no-change-log: the triggers are disabled after migrating. */
  changeLog: boolean;
  /** False with --no-events: the gateways run no webhook worker, so no events are rendered. */
  events: boolean;
  /** False with --no-demo: the demo's idle memory is not measured. */
  demo: boolean;
  keepDb: boolean;
  database: string;
  adminUrl: string;
  out: string;
}

function positive(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError("must be a number ≥ 0");
  return parsed;
}

function list(known: string[]) {
  return (value: string): string[] => {
    const items = value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    const unknown = items.filter((item) => !known.includes(item));
    if (unknown.length)
      throw new InvalidArgumentError(`unknown: ${unknown.join(", ")}; known: ${known.join(", ")}`);
    return items;
  };
}

// The peers are compared with the gateway without its cache, which none of them has.
const DEFAULT_TARGETS = [
  "floor",
  "rest",
  "rest-uncached",
  "graphql",
  "graphql-uncached",
  "graphql-full",
  "graphql-executed",
  "prisma",
  "sofa",
  "postgraphile",
];

/** Scenarios a run measures only when --scenarios names them. */
const namedOnly = NAMED_SCENARIOS.filter((scenario) => !SCENARIOS.includes(scenario)).map(
  (scenario) => scenario.id,
);

export function parseOptions(argv: string[], root: string): BenchOptions {
  const program = new Command("bench")
    .description(
      "Benchmarks the gateway beside its peers on a generated PostgreSQL database and prints the table and ratios.",
    )
    .option(
      "--seconds <n>",
      "measured seconds per scenario, server and round (at least 30 for the many-pages scenario, whose peak memory is judged)",
      positive,
      10,
    )
    .option("--rounds <n>", "rounds; servers alternate within each round", positive, 2)
    .option("--warmup <n>", "seconds of unmeasured load per scenario and server before round 1", positive, 2)
    .option("--connections <n>", "concurrent connections", positive, 50)
    .option(
      "--targets <list>",
      `servers to measure (${TARGETS.map((target) => target.id).join(", ")})`,
      list(TARGETS.map((target) => target.id)),
    )
    .option(
      "--scenarios <list>",
      `scenarios (${SCENARIOS.map((scenario) => scenario.id).join(", ")}; run only when named: ${namedOnly.join(", ")})`,
      list(NAMED_SCENARIOS.map((scenario) => scenario.id)),
      SCENARIOS.map((scenario) => scenario.id),
    )
    .option("--candidate <dir>", "another checkout whose build runs beside the gateway as 'candidate'")
    .option(
      "--candidate-node <file>",
      "the Node.js binary that runs the candidate's server (default: the one running the bench)",
    )
    .option("--no-scale", "skip growing the orders table to 1,000,000 to compare GET /orders p99")
    .option(
      "--no-fairness",
      "skip measuring another buyer's p99 beside one key's flood of uncached 500-order pages",
    )
    .option(
      "--cpu-prof",
      "run the gateway (and candidate) under node --cpu-prof and summarise the profile",
      false,
    )
    .option("--no-build", "use the existing dist/ builds")
    .option("--no-change-log", "disable the change log triggers, to measure what writes cost without them")
    .option(
      "--no-events",
      "run the gateways without their webhook worker (no events rendered), to tell the log's cost from the events'",
    )
    .option("--no-demo", "skip measuring the resident set of npm run demo once idle")
    .option("--keep-db", "keep the scratch database afterwards", false)
    .addOption(
      new Option("--database <name>", "scratch database (dropped and recreated)").default("bpa_bench"),
    )
    .addOption(
      new Option("--admin-url <url>", "PostgreSQL URL for creating the scratch database")
        .env("BENCH_ADMIN_URL")
        .default("postgres://postgres@127.0.0.1:5432/postgres"),
    )
    .option("--out <file>", "JSON report", path.join(root, "bench-results", "latest.json"));
  program.parse(argv, { from: "user" });
  const raw = program.opts<{
    seconds: number;
    rounds: number;
    warmup: number;
    connections: number;
    targets?: string[];
    scenarios: string[];
    candidate?: string;
    candidateNode?: string;
    scale: boolean;
    fairness: boolean;
    cpuProf: boolean;
    build: boolean;
    changeLog: boolean;
    events: boolean;
    demo: boolean;
    keepDb: boolean;
    database: string;
    adminUrl: string;
    out: string;
  }>();
  const candidate = raw.candidate ? path.resolve(raw.candidate) : null;
  const targets =
    raw.targets ?? (candidate ? [...DEFAULT_TARGETS, "candidate", "candidate-graphql"] : DEFAULT_TARGETS);
  if (raw.candidateNode && !candidate)
    throw new InvalidArgumentError("--candidate-node needs --candidate <dir>");
  if (!candidate && targets.some((target) => target.startsWith("candidate"))) {
    throw new InvalidArgumentError("the candidate targets need --candidate <dir>");
  }
  return {
    seconds: raw.seconds,
    rounds: Math.max(1, Math.round(raw.rounds)),
    warmup: raw.warmup,
    connections: Math.max(1, Math.round(raw.connections)),
    targets,
    scenarios: raw.scenarios,
    candidate,
    candidateNode: raw.candidateNode ? path.resolve(raw.candidateNode) : null,
    scale: raw.scale,
    fairness: raw.fairness,
    cpuProf: raw.cpuProf,
    build: raw.build,
    changeLog: raw.changeLog,
    events: raw.events,
    demo: raw.demo,
    keepDb: raw.keepDb,
    database: raw.database,
    adminUrl: raw.adminUrl,
    out: path.resolve(raw.out),
  };
}

/** The scratch database's URL on the same server as the admin URL. */
export function databaseUrl(options: BenchOptions): string {
  const url = new URL(options.adminUrl);
  url.pathname = `/${options.database}`;
  return url.toString();
}
