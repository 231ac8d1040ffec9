// `npx tsx scripts/measure-tracing.ts [requests-per-block] [blocks]`: what
// tracing costs a REST list request, in process (app.fetch, in-memory PGlite,
// an OTLP/HTTP receiver on localhost that accepts and discards). Blocks of
// requests alternate off / on so that a busy machine's drift hits both alike.
// docs/reference/operations.md quotes the figures.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../src/app.js";
import { configWith, loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { startTracing, type Tracing, withTracing } from "../src/telemetry/tracing.js";
import { seedBuyer, seedOrders } from "../test/support/seed.js";
import { createTestDatabase } from "../test/support/test-database.js";

const requestsPerBlock = Number(process.argv[2] ?? 200);
const blocks = Number(process.argv[3] ?? 3);

const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/x-protobuf" }).end());
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const collector = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const database = await createTestDatabase();
const buyer = await seedBuyer(database);
await seedOrders(
  database,
  buyer,
  Array.from({ length: 50 }, (_, index) => ({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)) })),
);
const logger = createLogger("silent");
const appConfig = configWith({
  appBaseUrl: "https://app.example.test",
  publicBaseUrl: "http://localhost",
  rateLimitPerMinute: 10_000_000,
});

async function block(tracing: Tracing | undefined): Promise<number> {
  const app = createApp({ config: appConfig, database, logger, tracing });
  const call = async () => {
    const response = await app.fetch("http://localhost/api/public/buyer/v1/orders?limit=20", {
      headers: { "x-api-key": buyer.apiKey },
    });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  };
  for (let index = 0; index < 20; index += 1) await call();
  const started = performance.now();
  for (let index = 0; index < requestsPerBlock; index += 1) await call();
  const perRequestMs = (performance.now() - started) / requestsPerBlock;
  await tracing?.forceFlush();
  await app.dispose();
  return perRequestMs;
}

const settings = loadConfig({
  OTEL_EXPORTER_OTLP_ENDPOINT: collector,
  OTEL_BSP_SCHEDULE_DELAY: "200",
}).tracing;
if (!settings) throw new Error("tracing should be on");
const off: number[] = [];
const on: number[] = [];
for (let round = 0; round < blocks; round += 1) {
  off.push(await block(undefined));
  const tracing = await startTracing(settings, logger);
  on.push(await block(tracing));
  await tracing.shutdown();
}

// What tracing-off adds to a request: the wrapper around the handler.
const handler = async (_request: Request) => new Response(null);
const wrapped = withTracing(undefined, handler);
const request = new Request("http://localhost/");
const timeCalls = async (fn: (request: Request) => Promise<Response>) => {
  const started = performance.now();
  for (let index = 0; index < 1_000_000; index += 1) await fn(request);
  return ((performance.now() - started) * 1e6) / 1_000_000;
};
await timeCalls(wrapped);
const directNs = await timeCalls(handler);
const wrappedNs = await timeCalls(wrapped);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const format = (values: number[]) => values.map((value) => value.toFixed(2)).join(", ");
console.log(`REST list (20 orders), ${requestsPerBlock} sequential requests per block, ms per request:`);
console.log(`  off: ${format(off)} (median ${median(off).toFixed(2)})`);
console.log(`  on:  ${format(on)} (median ${median(on).toFixed(2)})`);
console.log(`  on/off: ${(median(on) / median(off)).toFixed(3)}`);
console.log(
  `handler called directly: ${directNs.toFixed(0)} ns; through withTracing(off): ${wrappedNs.toFixed(0)} ns`,
);

await database.close();
receiver.close();
