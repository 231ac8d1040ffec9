// `npx tsx bench/dashboard-sql.ts --database <name> [--document <name>] [--verbose]`:
// the statements the gateway and PostGraphile send for each document of the
// dashboard's mix, on a database a bench run kept (`npm run bench -- --keep-db
// --database bpa_bench_…`), each timed inside PostgreSQL by EXPLAIN (ANALYZE,
// BUFFERS) as its server runs it: the gateway's named statements with a
// generic plan (its read connections' plan_cache_mode), PostGraphile's with
// the values bound. With --verbose, each statement and its plan.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import pg from "pg";
import { DASHBOARD_REQUESTS, type DashboardRequest } from "./dashboard.js";
import { buyerUuidSql, insertApiKey } from "./dataset.js";
import { startInProcess } from "./in-process.js";
import { sendOnce } from "./load.js";
import { POSTGRAPHILE_DASHBOARD_REQUESTS } from "./peers/postgraphile-dashboard.js";
import type { RequestPlan } from "./scenarios.js";
import { median, round } from "./stats.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const program = new Command("dashboard-sql")
  .requiredOption("--database <name>", "a bench database kept by --keep-db")
  .option("--admin-url <url>", "PostgreSQL URL of the server", "postgres://postgres@127.0.0.1:5432/postgres")
  .option("--document <name>", "one document of the mix")
  .option("--runs <n>", "EXPLAIN ANALYZE runs per statement (the median is shown)", "5")
  .option("--verbose", "print each statement and its plan", false);
program.parse(process.argv.slice(2), { from: "user" });
const options = program.opts<{
  database: string;
  adminUrl: string;
  document?: string;
  runs: string;
  verbose: boolean;
}>();
const url = new URL(options.adminUrl);
url.pathname = `/${options.database}`;
const databaseUrl = url.toString();
const appBaseUrl = "https://app.example.test";
const runs = Math.max(1, Number(options.runs));

interface Sent {
  sql: string;
  params: unknown[];
}

interface Timed {
  sql: string;
  executionMs: number;
  planningMs: number;
  /** Shared buffers hit and read by the statement's whole plan. */
  buffers: number;
  plan: string;
}

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const buyerId = (await client.query<{ id: string }>(`SELECT ${buyerUuidSql(1)}::text AS id`)).rows[0]?.id;
if (!buyerId) throw new Error("no measured buyer: is this a bench database?");
const apiKey = await insertApiKey(client, buyerId, "dashboard-sql");
const orderIds = (
  await client.query<{ id: string }>("SELECT id::text AS id FROM orders WHERE buyer_id = $1 ORDER BY id", [
    buyerId,
  ])
).rows.map((row) => row.id);

const literal = (value: unknown) =>
  value === null || value === undefined
    ? "NULL"
    : client.escapeLiteral(typeof value === "string" ? value : JSON.stringify(value));

let prepared = 0;
/** The statement as its server runs it, timed: a generic plan of a prepared statement, or planned for its values. */
async function explain(sent: Sent, generic: boolean): Promise<Timed> {
  const executions: number[] = [];
  const plannings: number[] = [];
  let buffers = 0;
  let plan = "";
  prepared += 1;
  const name = `dashboard_sql_${prepared}`;
  if (generic) {
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE ${name} AS ${sent.sql}`);
  }
  try {
    for (let run = 0; run < runs; run += 1) {
      const text = generic
        ? `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}(${sent.params.map(literal).join(", ")})`
        : `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sent.sql}`;
      const { rows } = await client.query<{
        "QUERY PLAN": [{ Plan: Record<string, unknown>; "Execution Time": number; "Planning Time": number }];
      }>(text, generic ? [] : sent.params);
      const [explained] = rows[0]?.["QUERY PLAN"] ?? [];
      if (!explained) continue;
      executions.push(explained["Execution Time"]);
      plannings.push(explained["Planning Time"]);
      buffers =
        Number(explained.Plan["Shared Hit Blocks"] ?? 0) + Number(explained.Plan["Shared Read Blocks"] ?? 0);
    }
    if (options.verbose) {
      const textual = generic
        ? `EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}(${sent.params.map(literal).join(", ")})`
        : `EXPLAIN (ANALYZE, BUFFERS) ${sent.sql}`;
      const { rows } = await client.query<{ "QUERY PLAN": string }>(textual, generic ? [] : sent.params);
      plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    }
  } finally {
    if (generic) {
      await client.query(`DEALLOCATE ${name}`);
      await client.query("RESET plan_cache_mode");
    }
  }
  return {
    sql: sent.sql,
    executionMs: round(median(executions), 3) ?? Number.NaN,
    planningMs: round(median(plannings), 3) ?? Number.NaN,
    buffers,
    plan,
  };
}

function planOf(request: DashboardRequest): RequestPlan {
  return {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    build: (n) => ({
      path: "/graphql",
      body: JSON.stringify({
        query: request.query,
        operationName: request.name,
        variables: request.variables(n, orderIds[n % orderIds.length] ?? ""),
      }),
    }),
  };
}

/** The statements a server sends for one request of each document, after one to warm it. */
async function capture(
  id: "gateway-uncached" | "postgraphile",
  requests: DashboardRequest[],
): Promise<Map<string, Sent[]>> {
  const sent: Sent[] = [];
  const server = await startInProcess(id, {
    root,
    databaseUrl,
    appBaseUrl,
    onQuery: (sql, params) => sent.push({ sql, params: JSON.parse(params) as unknown[] }),
  });
  const byDocument = new Map<string, Sent[]>();
  try {
    for (const request of requests) {
      if (options.document && request.name !== options.document) continue;
      // The variables the mix sends the document with: its place in the mix.
      const n = Math.max(
        0,
        DASHBOARD_REQUESTS.findIndex((candidate) => candidate.name === request.name),
      );
      await sendOnce(server.port, planOf(request), n);
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent.length = 0;
      const { status } = await sendOnce(server.port, planOf(request), n);
      if (status !== 200) throw new Error(`${id} answered ${request.name} with ${status}`);
      byDocument.set(request.name, [...sent]);
    }
  } finally {
    await server.close();
  }
  return byDocument;
}

/** The key lookup, rate limit and last-used writes, the same for every document: not the document's. */
const isBookkeeping = (sql: string) =>
  /\b(api_keys|rate_limit|buyer_versions)\b/.test(sql) ||
  /^\s*(BEGIN|COMMIT|SET|select set_config)/i.test(sql);

try {
  const servers = [
    { id: "gateway-uncached" as const, label: "gateway", generic: true, requests: DASHBOARD_REQUESTS },
    {
      id: "postgraphile" as const,
      label: "PostGraphile",
      generic: false,
      requests: POSTGRAPHILE_DASHBOARD_REQUESTS,
    },
  ];
  const captured = [];
  for (const server of servers)
    captured.push({ ...server, byDocument: await capture(server.id, server.requests) });
  const lines = [
    "| document | server | statements | execution ms | planning ms | buffers |",
    "|---|---|---:|---:|---:|---:|",
  ];
  for (const request of DASHBOARD_REQUESTS) {
    if (options.document && request.name !== options.document) continue;
    for (const server of captured) {
      const statements = (server.byDocument.get(request.name) ?? []).filter(
        (sent) => !isBookkeeping(sent.sql),
      );
      const timed: Timed[] = [];
      for (const statement of statements) timed.push(await explain(statement, server.generic));
      const sum = (pick: (t: Timed) => number) =>
        round(
          timed.reduce((total, t) => total + pick(t), 0),
          3,
        );
      lines.push(
        `| ${request.name} | ${server.label} | ${timed.length} | ${sum((t) => t.executionMs)} | ${sum((t) => t.planningMs)} | ${sum((t) => t.buffers)} |`,
      );
      if (options.verbose) {
        for (const t of timed) {
          console.log(`\n### ${request.name}, ${server.label}\n${t.sql}\n\n${t.plan}`);
        }
      }
    }
  }
  console.log(`\n${lines.join("\n")}`);
} finally {
  await client.query("DELETE FROM api_keys WHERE name = 'dashboard-sql'");
  await client.end();
}
