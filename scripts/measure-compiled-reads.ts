// `DATABASE_URL=postgres://… npx tsx scripts/measure-compiled-reads.ts [requests] [rounds]`:
// the Node CPU one uncached `GET /orders?limit=100` costs, in process, over a
// buyer with 3,000 orders like the bench's. Two ways, alternating in rounds so that a busy
// machine's drift hits both alike: the route's document executed (graphql-jit
// over Prisma, then JSON.stringify) and compiled (one SQL statement, JSON
// written from the rows); and the whole request through `app.fetch` (response
// cache off), with compiled reads and without (a tracing that records nothing
// turns them off).
import { type App, createApp } from "../src/app.js";
import { configWith } from "../src/config.js";
import { routes } from "../src/contract/routes.js";
import { readDataModel } from "../src/db/data-model.js";
import { createLogger } from "../src/logger.js";
import { bodyOfResult, planRouteRead, runCompiledRead } from "../src/rest/compiled-read.js";
import { compileRoute } from "../src/rest/compiled-route.js";
import { withSharedResponsePaths } from "../src/rest/shared-paths.js";
import { createReadPlanner } from "../src/schema/compiled/read-planner.js";
import { schema } from "../src/schema/index.js";
import type { Tracing } from "../src/telemetry/tracing.js";
import { contextOf } from "../test/support/compiled-reads.js";
import { seedBuyer, seedOrders } from "../test/support/seed.js";
import { createTestDatabase } from "../test/support/test-database.js";

const requests = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 3);

const database = await createTestDatabase();
const buyer = await seedBuyer(database, "Measured");
await seedOrders(
  database,
  buyer,
  Array.from({ length: 3_000 }, (_, index) => ({
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
    orderStatus: "order_placed",
    purchaseOrderReference: `PO-${index}`,
    placedAt: index % 2 === 0 ? null : new Date(Date.UTC(2025, 0, 2, 0, 0, index)),
    resourceValues: index % 3 === 0 ? [] : [{ provider: "erp", value: `E-${index}` }],
  })),
);

const listOrders = routes.find((candidate) => candidate.operationId === "listOrders");
if (!listOrders) throw new Error("no listOrders route");
const route = compileRoute(withSharedResponsePaths(schema), listOrders);
const planner = createReadPlanner({
  schema,
  dataModel: readDataModel(database.prisma),
  query: (text, values, _context, name) => database.query(text, values, name),
});
const plan = planRouteRead(planner, route);
if ("reason" in plan) throw new Error(plan.reason);
const variables = { first: 100 };

async function executed(): Promise<number> {
  const result = await route.execute(contextOf(database, buyer), variables);
  if (!result.data) throw new Error(result.errors?.[0]?.message);
  return bodyOfResult(route, result.data)?.json.length ?? 0;
}

async function compiled(): Promise<number> {
  if ("reason" in plan) return 0;
  const read = await runCompiledRead(plan.compiled, variables, contextOf(database, buyer));
  return read?.body?.json.length ?? 0;
}

const config = configWith({
  appBaseUrl: "https://app.example.test",
  publicBaseUrl: "http://localhost",
  rateLimitPerMinute: 10_000_000,
  responseCacheMaxBytes: 0,
});
const logger = createLogger("silent");
const app = createApp({ config, database, logger });
// Tracing that records nothing: the app then executes every read, as it does while tracing is on.
const passThrough: Tracing = {
  traceRequest: (_request, handle) => handle({ traceId: "", end: () => {} }),
  graphqlPlugins: [],
  traceExecution: (_operation, run) => run(),
  traceWebhookDelivery: (_delivery, run) => run(),
  registerMetrics: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};
const executingApp = createApp({ config, database, logger, tracing: passThrough });
const throughApp = (target: App) => async (): Promise<number> => {
  const response = await target.fetch("http://localhost/api/public/buyer/v1/orders?limit=100", {
    headers: { "x-api-key": buyer.apiKey, "accept-encoding": "identity" },
  });
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
};

/** Node CPU (user + system) and wall time per call, in ms. */
async function measure(call: () => Promise<number>): Promise<{ cpu: number; wall: number; bytes: number }> {
  let bytes = 0;
  for (let index = 0; index < 30; index += 1) bytes = await call();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < requests; index += 1) await call();
  const used = process.cpuUsage(cpu);
  return {
    cpu: (used.user + used.system) / 1000 / requests,
    wall: (performance.now() - started) / requests,
    bytes,
  };
}

const results: Record<string, { cpu: number[]; wall: number[]; bytes: number }> = {};
for (let round = 0; round < rounds; round += 1)
  for (const [name, call] of [
    ["document executed", executed],
    ["document compiled", compiled],
    ["app.fetch executed", throughApp(executingApp)],
    ["app.fetch compiled", throughApp(app)],
  ] as const) {
    const { cpu, wall, bytes } = await measure(call);
    const entry = results[name] ?? { cpu: [], wall: [], bytes };
    entry.cpu.push(cpu);
    entry.wall.push(wall);
    results[name] = entry;
  }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(`${database.target.kind}, ${requests} requests x ${rounds} rounds, limit=100 of 3,000 orders`);
for (const [name, { cpu, wall, bytes }] of Object.entries(results))
  console.log(
    `${name.padEnd(18)} CPU ${median(cpu).toFixed(2)} ms/request (rounds: ${cpu.map((v) => v.toFixed(2)).join(", ")}), wall ${median(wall).toFixed(2)} ms, ${bytes} bytes`,
  );
await app.dispose();
await executingApp.dispose();
await database.close();
