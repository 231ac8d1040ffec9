import { DEFAULT_CONFIG } from "../src/config.js";
import type { ScaleInfo } from "./dataset.js";
import type { ExplainResult } from "./explain.js";
import type { Measurement } from "./load.js";
import type { QueryCount } from "./query-count.js";
import { type Cell, judged, perRound, type Ratio, ratio } from "./report.js";
import { type Scenario, TARGETS } from "./scenarios.js";

type Goal = { atLeast?: number; atMost?: number };

const rps = (m: Measurement) => m.requestsPerSecond;
/** Everything a request costs the machine: the server process and the PostgreSQL backends serving it. */
const cpu = (m: Measurement) =>
  m.serverCpuMsPerRequest === null ? Number.NaN : m.serverCpuMsPerRequest + (m.databaseCpuMsPerRequest ?? 0);
/** The server process's CPU alone: what planning saves in Node, whatever PostgreSQL does. */
const nodeCpu = (m: Measurement) => m.serverCpuMsPerRequest ?? Number.NaN;
const peakRss = (m: Measurement) => m.peakRssMb ?? Number.NaN;

/**
 * The goals, then the ratios that explain them (vs the floor, candidate vs
 * gateway). docs/design/performance.md lists every goal with its target; a test
 * (test/docs/performance-goals.test.ts) keeps the two the same.
 */
export function goalRatios(cells: Cell[], counts: QueryCount[], scenarios: Scenario[]): Ratio[] {
  const cell = (scenario: string, target: string) =>
    cells.find((candidate) => candidate.scenario === scenario && candidate.target === target);
  const ratios: Ratio[] = [];

  // Each comparison twice: by throughput, and by CPU per request (theirs over ours, so that
  // above 1 is better for us too), which a busy machine disturbs far less than req/s.
  // With `byNodeCpu`, a third line by the server's CPU alone, unjudged: it explains the other two.
  function compare(
    name: string,
    scenario: string,
    ours: string,
    theirs: string,
    goal: Goal,
    byNodeCpu = false,
  ): void {
    const left = cell(scenario, ours);
    const right = cell(scenario, theirs);
    if (!left || !right) return;
    ratios.push(
      ratio(`${name}, req/s`, left, right, rps, goal),
      ratio(`${name}, by CPU per request (server + PostgreSQL)`, right, left, cpu, goal),
    );
    if (byNodeCpu) ratios.push(ratio(`${name}, by Node CPU per request`, right, left, nodeCpu, {}));
  }

  // The peers have no response cache: each is compared with the gateway without its cache.
  compare(
    "REST GET /orders?limit=100 without the cache vs (b) node:http + Prisma",
    "list-orders",
    "rest-uncached",
    "prisma",
    { atLeast: 3 },
  );
  compare(
    "REST GET /orders?limit=100 without the cache vs (c) SOFA",
    "list-orders",
    "rest-uncached",
    "sofa",
    { atLeast: 3 },
  );
  compare(
    "REST GET /orders?limit=100 without the cache vs (d) PostGraphile",
    "list-orders",
    "rest-uncached",
    "postgraphile",
    { atLeast: 1.5 },
  );
  compare(
    "REST GET /buyer_product_approvals without the cache vs (b) node:http + Prisma",
    "list-approvals",
    "rest-uncached",
    "prisma",
    { atLeast: 2 },
  );
  for (const scenario of scenarios) {
    compare(
      `REST vs the same operation as GraphQL, both without the cache, ${scenario.label}`,
      scenario.id,
      "rest-uncached",
      "graphql-uncached",
      { atLeast: 0.95 },
    );
  }
  compare(
    "GraphQL orders(first: 100) sent in full vs as a persisted document, both without the cache",
    "list-orders",
    "graphql-full",
    "graphql-uncached",
    { atLeast: 0.8 },
  );
  compare(
    "GraphQL orders(first: 100) sent in full without the cache vs (d) PostGraphile",
    "list-orders",
    "graphql-full",
    "postgraphile",
    { atLeast: 3 },
    true,
  );
  // Ad-hoc documents as a dashboard sends them: planned, against the planner off and against PostGraphile.
  compare(
    "GraphQL dashboard documents sent in full, planned vs every query executed",
    "dashboard",
    "graphql",
    "graphql-executed",
    { atLeast: 3 },
    true,
  );
  compare(
    "GraphQL dashboard documents sent in full vs (d) PostGraphile",
    "dashboard",
    "graphql",
    "postgraphile",
    { atLeast: 3 },
    true,
  );
  // The mix's documents each alone, when the run measured them: where the mix's ratio comes from.
  for (const scenario of scenarios.filter((candidate) => candidate.id.startsWith("dashboard-"))) {
    compare(`${scenario.label} vs (d) PostGraphile`, scenario.id, "graphql", "postgraphile", {}, true);
    compare(`${scenario.label}, planned vs executed`, scenario.id, "graphql", "graphql-executed", {}, true);
  }
  // Another checkout's build on the dashboard's documents, in the same rounds (--candidate).
  for (const scenario of scenarios.filter((candidate) => candidate.id.startsWith("dashboard"))) {
    compare(
      `gateway vs candidate GraphQL, ${scenario.label}`,
      scenario.id,
      "graphql",
      "candidate-graphql",
      {},
      true,
    );
  }
  // Memory under the same load: the gateway's peak against the hand-written handler's, judged only
  // when the gateway's process served nothing else (a turn's peak starts from the heap others left).
  const pageWithoutCache = cell("list-orders", "rest-uncached");
  const pageByPrisma = cell("list-orders", "prisma");
  if (pageWithoutCache && pageByPrisma) {
    const alone = servedAlone(cells, pageWithoutCache);
    ratios.push(
      ratio(
        "peak RSS under REST GET /orders?limit=100, gateway without the cache vs (b) node:http + Prisma" +
          (alone ? "" : " (judged only with --targets rest-uncached,prisma --scenarios list-orders)"),
        pageWithoutCache,
        pageByPrisma,
        peakRss,
        alone ? { atMost: 1 } : {},
      ),
    );
  }
  // What one uncached page costs, in the Node process and in PostgreSQL.
  const uncachedPage = cell("list-orders", "rest-uncached");
  if (uncachedPage && pageByPrisma) {
    // The gateway's share of the Node CPU the hand-written handler spends on the same page.
    ratios.push(
      ratio(
        "Node CPU per request, REST GET /orders?limit=100 without the cache, gateway ÷ (b) node:http + Prisma",
        uncachedPage,
        pageByPrisma,
        nodeCpu,
        { atMost: 0.25 },
      ),
    );
  }
  if (uncachedPage) {
    const each = (metric: (m: Measurement) => number | null) =>
      uncachedPage.rounds.map(metric).filter((value): value is number => value !== null);
    ratios.push(
      judged(
        "Node CPU ms per request, REST GET /orders?limit=100 without the cache",
        each((m) => m.serverCpuMsPerRequest),
        { atMost: 2 },
      ),
      judged(
        "PostgreSQL CPU ms per request, REST GET /orders?limit=100 without the cache",
        each((m) => m.databaseCpuMsPerRequest),
        { atMost: 3 },
      ),
    );
  }
  for (const scenario of scenarios.filter((candidate) => candidate.read)) {
    const count = counts.find((entry) => entry.scenario === scenario.id && entry.target === "rest")?.count;
    if (count === undefined) continue;
    ratios.push({
      name: `SQL statements per REST list request, ${scenario.label}`,
      value: count,
      goal: "≤ 3",
      pass: count <= 3,
      perRound: [],
    });
  }
  // On whichever gateway process the run measured GraphQL.
  const graphqlCount = counts.find(
    (entry) => entry.scenario === "list-orders" && entry.target.startsWith("graphql"),
  )?.count;
  if (graphqlCount !== undefined) {
    ratios.push({
      name: "SQL statements per GraphQL request, orders(first: 100) as a persisted document",
      value: graphqlCount,
      goal: "≤ 2",
      pass: graphqlCount <= 2,
      perRound: [],
    });
  }
  // Conditional and cached reads (docs/design/decisions.md §9).
  const revalidated = cell("list-orders-revalidated", "rest");
  const floor = cell("list-orders", "floor");
  if (revalidated && floor) {
    ratios.push(
      ratio(
        "REST GET /orders?limit=100 with a current If-None-Match (304) vs (a) floor, req/s",
        revalidated,
        floor,
        rps,
        {
          atLeast: 0.45,
        },
      ),
    );
  }
  // Compression (docs/design/decisions.md, "Compression").
  const plainPage = cell("list-orders", "rest");
  const codedPage = cell("list-orders-compressed", "rest");
  if (plainPage?.responseBytes && codedPage?.responseBytes) {
    const share = codedPage.responseBytes / plainPage.responseBytes;
    ratios.push({
      name: "bytes on the wire of GET /orders?limit=100 in brotli vs plain",
      value: share,
      goal: "≤ 0.15",
      pass: share <= 0.15,
      perRound: [],
    });
  }
  const codedFloor = cell("list-orders-compressed", "floor");
  if (codedPage && codedFloor) {
    ratios.push(
      ratio(
        "REST GET /orders?limit=100 in brotli, cached hit vs (a) floor sending the same bytes, req/s",
        codedPage,
        codedFloor,
        rps,
        { atLeast: 0.4 },
      ),
    );
  }
  const codedUncached = cell("list-orders-compressed", "rest-uncached");
  const plainUncached = cell("list-orders", "rest-uncached");
  if (codedUncached && plainUncached) {
    ratios.push(
      ratio(
        "REST GET /orders?limit=100 without the cache, brotli vs plain, req/s",
        codedUncached,
        plainUncached,
        rps,
        {
          atLeast: 0.9,
        },
      ),
      ratio(
        "REST GET /orders?limit=100 without the cache, brotli vs plain, by CPU per request (server + PostgreSQL)",
        plainUncached,
        codedUncached,
        cpu,
        { atLeast: 0.9 },
      ),
    );
  }
  compare(
    "REST GET /orders?limit=100 repeated, data unchanged (response cache) vs without the cache",
    "list-orders",
    "rest",
    "rest-uncached",
    { atLeast: 10 },
  );
  const cacheMemory = cacheMemoryGoal(
    cell("list-orders-many-pages", "rest"),
    cell("list-orders-many-pages", "rest-uncached"),
    cells,
  );
  if (cacheMemory) ratios.push(cacheMemory);
  for (const scenario of scenarios) {
    compare(
      `REST without the response cache vs today (candidate), ${scenario.label}`,
      scenario.id,
      "rest-uncached",
      "candidate",
      {
        atLeast: 0.95,
      },
    );
  }
  for (const scenario of scenarios.filter((candidate) => !candidate.read)) {
    compare(
      `writes with the change log vs without it, ${scenario.label}`,
      scenario.id,
      "rest-uncached",
      "rest-unlogged",
      { atLeast: 0.95 },
    );
  }
  // The floor sends bytes it holds, as a cache hit does: only the hit is set beside it.
  const cachedPage = cell("list-orders", "rest");
  if (cachedPage && floor) {
    ratios.push(
      ratio("REST GET /orders?limit=100, cached hit vs (a) floor, req/s", cachedPage, floor, rps, {}),
    );
  }
  for (const scenario of scenarios) {
    // What tracing costs: above 1 by CPU per request means it is cheaper than without.
    compare(`tracing on vs off, REST ${scenario.label}`, scenario.id, "rest-traced", "rest", {});
  }
  for (const scenario of scenarios) {
    compare(
      `candidate vs gateway GraphQL, ${scenario.label}`,
      scenario.id,
      "candidate-graphql",
      "graphql-uncached",
      {},
    );
  }
  return ratios;
}

/** Whether the server processes behind `compared` served nothing in this run but its scenario. */
function servedAlone(cells: Cell[], compared: Cell): boolean {
  const processOf = (cell: Cell) => TARGETS.find((target) => target.id === cell.target)?.process;
  return cells.every(
    (entry) => entry.scenario === compared.scenario || processOf(entry) !== processOf(compared),
  );
}

/**
 * What the response cache adds to the process's peak memory while it is full
 * and turning over, round by round: the gateway's peak minus the same build's
 * without the cache, against the cache's default bound. Judged only when the
 * two processes served nothing else: a turn's peak starts from the heap the
 * turns before left, and the gateway's turns of cache hits and GraphQL pages
 * leave a bigger one than the uncached process's.
 */
function cacheMemoryGoal(cached: Cell | undefined, uncached: Cell | undefined, cells: Cell[]): Ratio | null {
  const peak = (m: Measurement) => m.peakRssMb ?? Number.NaN;
  const differences = perRound(cached, uncached, peak, (withCache, without) => withCache - without);
  if (!cached || !uncached || differences.length === 0) return null;
  const alone = servedAlone(cells, cached) && servedAlone(cells, uncached);
  const boundMb = DEFAULT_CONFIG.responseCacheMaxBytes / 1024 / 1024;
  const judgedBy = alone
    ? "goal: the cache's bound"
    : `judged only with --targets rest,rest-uncached --scenarios ${cached.scenario}`;
  return judged(
    `peak RSS with the response cache full minus without it, ${cached.scenarioLabel}, MB (${judgedBy})`,
    differences,
    alone ? { atMost: boundMb } : {},
    0,
  );
}

/** A page costs the same whatever lies beyond it: index range scans, not the table's size. */
const SCALE_GOAL: Goal = { atMost: 1.5 };

/**
 * The scale step's goals: each page for the buyer with most of the grown
 * table against the same page for a buyer with 10,000 orders, measured in the
 * same rounds (`pairs`: the large buyer's cell, then the small one's), by p99
 * and by the page statement's own time inside PostgreSQL (`explain`).
 */
export function scaleRatios(
  info: ScaleInfo,
  scenarios: Scenario[],
  callers: { large: string; small: string },
  pairs: [large: Cell | undefined, small: Cell | undefined][],
  explain: ExplainResult[],
): Ratio[] {
  const orders = (count: number) => count.toLocaleString("en-US");
  const ratios = pairs.map(([large, small]) =>
    ratio(
      `p99 ${large?.scenarioLabel}: ${orders(info.ordersInTable)}-row table, buyer with ` +
        `${orders(info.measuredBuyerOrders)} orders vs ${orders(info.referenceBuyerOrders)}`,
      large,
      small,
      (m) => m.p99Ms,
      SCALE_GOAL,
    ),
  );
  for (const scenario of scenarios) {
    const [large, small] = [callers.large, callers.small].map(
      (caller) =>
        explain.find((result) => result.scenario === scenario.id && result.label.endsWith(caller))
          ?.executionMs,
    );
    const quotient = large !== undefined && large !== null && small ? [large / small] : [];
    ratios.push({
      ...judged(
        `PostgreSQL time of the page statement, ${scenario.label}: ${callers.large} vs ${callers.small}`,
        quotient,
        SCALE_GOAL,
      ),
      perRound: [],
    });
  }
  return ratios;
}
