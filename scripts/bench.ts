// `npm run bench [-- options]`: the gateway beside its peers on a generated
// PostgreSQL database. docs/design/performance.md explains the numbers; `--help`
// lists the options.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildAll } from "../bench/build.js";
import { type DatabaseWatch, watchDatabase } from "../bench/database-watch.js";
import { dropDatabase, migrate, recreateDatabase, seedDataset, setChangeLog } from "../bench/dataset.js";
import { demoIdleRss } from "../bench/demo-memory.js";
import { type ExplainResult, explainPages, explainTable } from "../bench/explain.js";
import { type FairnessResult, runFairness } from "../bench/fairness.js";
import { LAST_GOALS_FILE, PERFORMANCE_DOC, recordRun } from "../bench/goal-table.js";
import { goalRatios } from "../bench/goals.js";
import { describeMachine } from "../bench/machine.js";
import { databaseUrl, parseOptions } from "../bench/options.js";
import type { ServerProcess } from "../bench/processes.js";
import { newestProfile, type ProfileSummary, summariseProfile } from "../bench/profile.js";
import { countQueries } from "../bench/query-count.js";
import { type Cell, processTable, type Ratio, ratioTable, resultTable, summarise } from "../bench/report.js";
import { type Job, runRounds, warmUp } from "../bench/run.js";
import { captureCannedResponses, checkJobs } from "../bench/samples.js";
import { runScaleStep, type ScaleResult } from "../bench/scale-step.js";
import {
  NAMED_SCENARIOS,
  type ProcessId,
  planOf,
  runsOn,
  type ScenarioContext,
  TARGETS,
} from "../bench/scenarios.js";
import { profileDirOf, type ServerSettings, startProcess } from "../bench/servers.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const options = parseOptions(process.argv.slice(2), root);
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const elapsed = (since: number) => `${Math.round((performance.now() - since) / 1000)} s`;

const started = performance.now();
const resultsDir = path.dirname(options.out);
const logDir = path.join(resultsDir, "logs");
const profileDir = options.cpuProf ? path.join(resultsDir, "profiles") : null;
mkdirSync(logDir, { recursive: true });
if (profileDir) rmSync(profileDir, { recursive: true, force: true });

if (options.build) {
  log("building the gateway (npm run build) and the peers (tsc -p bench)...");
  buildAll(root, options.candidate);
}

// The scenarios' many connections on one key measure throughput, not fairness: as each key's
// bound is lifted for them (bench/servers.ts), so is the process's; the fairness phase sets both.
process.env.MAX_RUNNING_EXPENSIVE ??= "1000000";

const url = databaseUrl(options);
log(`creating the scratch database ${options.database}...`);
await recreateDatabase(options.adminUrl, options.database);
await migrate(url);
if (!options.changeLog) {
  await setChangeLog(url, false);
  log("change log triggers disabled (--no-change-log): writes cost what they did before the log");
}
let phase = performance.now();
const dataset = await seedDataset(url);
log(`dataset generated in ${elapsed(phase)}: ${JSON.stringify(dataset.counts)}`);

const machine = await describeMachine(url, root);
const runTag = randomBytes(4).toString("hex");
const context: ScenarioContext = { apiKey: dataset.apiKey, orderIds: dataset.orderIds, runTag };
const scenarios = NAMED_SCENARIOS.filter((scenario) => options.scenarios.includes(scenario.id));
const targets = TARGETS.filter((target) => options.targets.includes(target.id));
const settings: ServerSettings = {
  root,
  candidateRoot: options.candidate,
  candidateNode: options.candidateNode,
  databaseUrl: url,
  appBaseUrl: "https://app.example.test",
  logDir,
  profileDir,
  events: options.events,
  floorResponses: path.join(resultsDir, "floor-responses.json"),
};

const processes = new Map<ProcessId, ServerProcess>();
const stopAll = async () => {
  for (const server of processes.values()) await server.stop();
};
process.once("SIGINT", () => void stopAll().finally(() => process.exit(130)));

let scale: ScaleResult | null = null;
let fairness: FairnessResult | null = null;
const profiles: ProfileSummary[] = [];
let cells: Cell[] = [];
let counts: Awaited<ReturnType<typeof countQueries>> = [];
let database: DatabaseWatch | null = null;
let explained: ExplainResult[] = [];
let demo: Ratio | null = null;
try {
  const needed = [...new Set(targets.map((target) => target.process))];
  // The gateway comes first: the floor replays its answers.
  const gateway = await startProcess("gateway", settings);
  processes.set("gateway", gateway);
  if (needed.includes("floor")) {
    const canned = await captureCannedResponses(gateway.port, scenarios, context);
    writeFileSync(settings.floorResponses ?? "", JSON.stringify(canned));
  }
  for (const id of needed) {
    if (!processes.has(id)) processes.set(id, await startProcess(id, settings));
  }
  log(
    `servers: ${[...processes.values()].map((server) => `${server.name} pid ${server.pid} :${server.port}`).join(", ")}`,
  );

  const groups: Job[][] = scenarios.map((scenario) =>
    targets
      .filter((target) => runsOn(target, scenario))
      .map((target) => {
        const server = processes.get(target.process);
        if (!server) throw new Error(`no process for ${target.id}`);
        return {
          cell: {
            scenario: scenario.id,
            scenarioLabel: scenario.label,
            target: target.id,
            targetLabel: target.label,
            rounds: [],
            responseBytes: null,
          },
          port: server.port,
          pid: server.pid,
          plan: planOf(target, scenario, context),
          ...(target.changeLog === false && options.changeLog
            ? { around: { before: () => setChangeLog(url, false), after: () => setChangeLog(url, true) } }
            : {}),
        };
      }),
  );
  await checkJobs(groups, log);

  phase = performance.now();
  counts = await countQueries({
    root,
    candidateRoot: options.candidate,
    databaseUrl: url,
    appBaseUrl: settings.appBaseUrl,
    targets,
    scenarios,
    context,
  });
  log(`SQL statements per request counted in-process (${elapsed(phase)})`);
  explained = await explainPages({
    root,
    databaseUrl: url,
    appBaseUrl: settings.appBaseUrl,
    scenarios: scenarios.filter((scenario) => scenario.read && !scenario.only),
    callers: [{ label: `buyer with ${dataset.orderIds.length.toLocaleString("en-US")} orders`, context }],
  });

  database = await watchDatabase(url);
  const load = {
    seconds: options.seconds,
    connections: options.connections,
    database,
  };
  phase = performance.now();
  log(`warming up: ${options.warmup} s per scenario and server...`);
  await warmUp(groups, options.warmup, load);
  log(
    `measuring: ${options.rounds} rounds of ${options.seconds} s per scenario and server (${elapsed(phase)} warm-up)`,
  );
  await runRounds(groups, options.rounds, load, log);
  cells = groups.flat().map((job) => job.cell);

  for (const server of processes.values()) {
    if (server.name !== "gateway") await server.stop();
  }
  if (options.demo) demo = await demoIdleRss(root, logDir);
  if (options.fairness) {
    // Two workers, as deployed; expensive work bounded as by default, with two turns on the host, then lifted.
    const twoWorkers = { WEB_CONCURRENCY: "2", LOG_LEVEL: "warn" };
    const bounded = {
      ...twoWorkers,
      MAX_RUNNING_EXPENSIVE: "1",
      MAX_CONCURRENT_EXPENSIVE_PER_KEY: "2",
      MAX_WAITING_EXPENSIVE_PER_KEY: "16",
      MAX_SENDING_BYTES_PER_KEY: "33554432",
    };
    const gateways = [
      { bound: "defaults: 1 running per host", server: await startProcess("gateway", settings, bounded) },
      {
        bound: "2 running per host",
        server: await startProcess("gateway", settings, { ...bounded, MAX_RUNNING_EXPENSIVE: "2" }),
      },
      { bound: "bounds off", server: await startProcess("gateway", settings, twoWorkers) },
    ];
    try {
      fairness = await runFairness({ gateways, dataset, seconds: options.seconds, load, log });
    } finally {
      for (const { server } of gateways) await server.stop();
    }
  }
  if (options.scale) {
    // The peak of the measured run, not of the scale step's bigger pages.
    gateway.recordPeak();
    scale = await runScaleStep({
      root,
      appBaseUrl: settings.appBaseUrl,
      databaseUrl: url,
      dataset,
      gateway,
      runTag,
      rounds: options.rounds,
      warmupSeconds: options.warmup,
      load,
      log,
    });
  }
} finally {
  await stopAll();
  await database?.close();
}

for (const id of processes.keys()) {
  const dir = profileDirOf(settings, id);
  const file = dir ? newestProfile(dir) : null;
  if (file) profiles.push(summariseProfile(file));
}

const summaries = summarise(cells, counts);
const ratios = [
  ...goalRatios(cells, counts, scenarios),
  ...(scale?.ratios ?? []),
  ...(fairness?.ratios ?? []),
  ...(demo ? [demo] : []),
];
const processSummary = [...processes.values()].map((server) => ({
  name: server.name,
  peakRssKb: server.peakRssKb,
}));

const sections = [
  `## Results (${options.rounds} rounds × ${options.seconds} s, ${options.connections} connections, median of rounds)`,
  resultTable(summaries),
  "## Ratios (per round, then the median)",
  ratioTable(ratios),
  "## Server processes",
  processTable(processSummary),
];
if (explained.length > 0) sections.push("## Page statements inside PostgreSQL", explainTable(explained));
if (scale) {
  sections.push("## Scale step", resultTable(summarise(scale.cells, [])), explainTable(scale.explain));
}
for (const profile of profiles) {
  sections.push(
    `## CPU profile: ${path.relative(root, profile.file)} (${profile.busyMs} ms busy)`,
    [
      "| self time in | ms | % |",
      "|---|---:|---:|",
      ...profile.categories.map((c) => `| ${c.name} | ${c.ms} | ${c.percent} |`),
    ].join("\n"),
    [
      "| hottest functions | where | ms | % |",
      "|---|---|---:|---:|",
      ...profile.topFunctions.map((f) => `| ${f.name} | ${f.where} | ${f.ms} | ${f.percent} |`),
    ].join("\n"),
  );
}
const failures = summaries.filter((row) => row.non2xx + row.errors > 0);
if (failures.length > 0) {
  sections.push(
    `WARNING: non-2xx responses or errors in ${failures.map((row) => `${row.scenario}/${row.target}`).join(", ")}; see ${path.relative(root, logDir)}`,
  );
}
console.log(`\n${sections.join("\n\n")}\n`);
console.log(
  `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
    `${machine.postgres.split(" on ")[0]}; load average ${machine.loadAverageAtStart.join(" ")} at start, ` +
    `${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} at end`,
);

writeFileSync(
  options.out,
  `${JSON.stringify(
    {
      startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
      durationSeconds: Math.round((performance.now() - started) / 1000),
      machine: { ...machine, loadAverageAtEnd: os.loadavg().map((value) => Math.round(value * 100) / 100) },
      options,
      dataset: { counts: dataset.counts, measuredBuyerOrders: dataset.orderIds.length },
      results: summaries,
      ratios,
      sqlPerRequest: counts,
      processes: processSummary,
      pageStatements: explained,
      scale,
      fairness: fairness?.runs ?? null,
      profiles,
    },
    null,
    2,
  )}\n`,
);
log(`wrote ${path.relative(root, options.out)} (${elapsed(started)} in all)`);
// The goals this run judged become the performance page's current values.
recordRun(ratios, new Date().toISOString(), root);
log(`wrote ${LAST_GOALS_FILE} and the goals table of ${PERFORMANCE_DOC}`);

if (!options.keepDb) {
  await dropDatabase(options.adminUrl, options.database);
  log(`dropped ${options.database}`);
}
