// A bulk import leaves one large backlog of change log entries. The webhook
// worker renders it into events in bounded batches, each its own committed
// transaction, reading a batch's records with one read per record type rather
// than one per record; /metrics shows what is still waiting and what was
// rendered. A process killed in the middle loses nothing and duplicates nothing.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import type { Database } from "../../src/db/database.js";
import { importData } from "../../src/import/import.js";
import { formatProblem } from "../../src/import/problems.js";
import { createLogger } from "../../src/logger.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { APP_BASE_URL, callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

const EXAMPLE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "cli",
  "fixtures",
  "example.json",
);
const EXAMPLE_KEY = "bpk_example_0123456789abcdefghijklmnopqrstuv";

/** The CLI's example import file with `orders` orders in all, as an operator's bulk import writes them. */
function importFileWith(orders: number): { file: Record<string, unknown>; orderIds: string[] } {
  const file = JSON.parse(readFileSync(EXAMPLE, "utf8")) as { orders: Record<string, unknown>[] };
  const [template] = file.orders;
  const extra = Array.from({ length: orders - file.orders.length }, (_, index) => ({
    ...template,
    id: randomUUID(),
    order_reference: `BULK-${index}`,
  }));
  file.orders = [...file.orders, ...extra];
  return { file, orderIds: file.orders.map((order) => String(order.id)) };
}

async function importOrders(database: Database, orders: number): Promise<string[]> {
  const { file, orderIds } = importFileWith(orders);
  const outcome = await importData(database, file);
  if (!outcome.ok) throw new Error(outcome.problems.map(formatProblem).join("\n"));
  return orderIds;
}

/** A sample's value in the Prometheus text format, or undefined when it is not there. */
function sample(metrics: string, name: string): number | undefined {
  const escaped = name.replace(/[{}"+.]/g, "\\$&");
  const match = new RegExp(`^${escaped} (\\S+)$`, "m").exec(metrics);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

const config: WebhookConfig = { ...DEFAULT_WEBHOOK_CONFIG, pollIntervalMs: 50 };
const BATCH = 25;
const ORDERS = 160;

describe("rendering the events of a bulk import", { timeout: 120_000 }, () => {
  let test: TestApp;
  let worker: WebhookWorker | undefined;
  let orderIds: string[];
  let backlog: number;
  const metrics = async () => (await test.app.fetch("http://localhost/metrics")).text();

  beforeAll(async () => {
    test = await createTestApp({ webhooks: config });
    orderIds = await importOrders(test.database, ORDERS);
    backlog = await test.database.prisma.changeLogUnrendered.count();
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await test?.close();
  });

  it("shows the backlog in /metrics before anything renders it", async () => {
    // Every order, plus the file's other records that become events.
    expect(backlog).toBeGreaterThan(ORDERS);
    expect(sample(await metrics(), "webhook_changes_unrendered")).toBe(backlog);
  });

  it("renders it in batches of the configured size, in order, each record once, with one read per type per batch", async () => {
    test.resetQueries();
    worker = await startWebhookWorker({
      database: test.database,
      config: { ...config, renderBatchSize: BATCH },
      logger: createLogger("silent"),
      render: createEventRenderer({
        config: { appBaseUrl: APP_BASE_URL, webhooks: config },
        database: test.database,
      }),
      observeRendering: test.metrics.observeEventRendering,
    });
    // While it works: nothing is rendered before an older entry is (the newest event is older than every waiting entry).
    let samples = 0;
    await vi.waitFor(
      async () => {
        const [{ newestRendered, oldestWaiting } = { newestRendered: null, oldestWaiting: null }] = await test
          .database.prisma.$queryRaw<
          { newestRendered: bigint | null; oldestWaiting: bigint | null }[]
        >`SELECT (SELECT max(change_seq) FROM webhook_events) AS "newestRendered",
                 (SELECT min(seq) FROM change_log_unrendered) AS "oldestWaiting"`;
        samples += 1;
        if (newestRendered !== null && oldestWaiting !== null)
          expect(newestRendered).toBeLessThan(oldestWaiting);
        expect(oldestWaiting).toBeNull();
      },
      { timeout: 60_000, interval: 20 },
    );
    expect(samples).toBeGreaterThan(1);

    const text = await metrics();
    expect(sample(text, "webhook_changes_unrendered")).toBe(0);
    expect(sample(text, "webhook_events_rendered_total")).toBe(backlog);
    // Every transaction took at most BATCH entries, so there were at least backlog / BATCH of them.
    const batches = sample(text, "webhook_render_batch_entries_count") ?? 0;
    expect(batches).toBeGreaterThanOrEqual(Math.ceil(backlog / BATCH));
    expect(sample(text, `webhook_render_batch_entries_bucket{le="${BATCH}"}`)).toBe(batches);
    expect(sample(text, "webhook_render_batch_entries_sum")).toBe(backlog);

    // One read of the orders table per batch that had orders in it, not one per order
    // (Prisma's, or the planned read's).
    const orderReads = test.queries.filter((sql) => /^SELECT\b.*\bFROM (?:"public"\.)?"orders"/s.test(sql));
    expect(orderReads.length).toBeGreaterThan(0);
    expect(orderReads.length).toBeLessThanOrEqual(Math.ceil(ORDERS / BATCH) + 1);

    // Exactly one order.created per order, whose object is, byte for byte, what GET /orders/{id} answers.
    const events = await test.database.prisma.webhookEvent.findMany({ where: { type: "order.created" } });
    const objectIds = events.map((event) => (JSON.parse(event.data) as { object: { id: string } }).object.id);
    expect(objectIds.sort()).toEqual([...orderIds].sort());
    expect(await test.database.prisma.webhookEvent.count()).toBe(backlog);
    for (const event of events) {
      const { object } = JSON.parse(event.data) as { object: { id: string } };
      const read = await callApi(test.app, "GET", `/orders/${object.id}`, { key: EXAMPLE_KEY });
      expect(event.data).toBe(`{"object":${read.text}}`);
    }
  });
});

// PGlite belongs to one process, so this runs where DATABASE_URL names PostgreSQL.
describe.runIf(onPostgres)("a process killed while it renders a backlog", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  let worker: WebhookWorker | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    await server?.exited;
    await worker?.stop();
    await database?.close();
  });

  it("leaves the entries it had not committed to the next worker, which renders each exactly once", async () => {
    const orderIds = await importOrders(database, 3_000);
    const backlog = await database.prisma.changeLogUnrendered.count();

    server = await startServerProcess({ DATABASE_URL: database.url });
    // Killed once some batches have committed and others have not.
    await vi.waitFor(async () => expect(await database.prisma.webhookEvent.count()).toBeGreaterThan(0), {
      timeout: 60_000,
      interval: 10,
    });
    server.child.kill("SIGKILL");
    await server.exited;
    const renderedBeforeKill = await database.prisma.webhookEvent.count();
    expect(renderedBeforeKill).toBeLessThan(backlog);
    // Each entry of the example file is one event: what was rendered is off the list, the rest is on it.
    expect(await database.prisma.changeLogUnrendered.count()).toBe(backlog - renderedBeforeKill);

    worker = await startWebhookWorker({
      database,
      config,
      logger: createLogger("silent"),
      render: createEventRenderer({ config: { appBaseUrl: APP_BASE_URL, webhooks: config }, database }),
    });
    await vi.waitFor(async () => expect(await database.prisma.changeLogUnrendered.count()).toBe(0), {
      timeout: 120_000,
      interval: 100,
    });
    expect(await database.prisma.webhookEvent.count()).toBe(backlog);
    const orderEvents = await database.prisma.webhookEvent.findMany({
      where: { type: "order.created" },
      select: { data: true },
    });
    expect(
      orderEvents.map((event) => (JSON.parse(event.data) as { object: { id: string } }).object.id).sort(),
    ).toEqual([...orderIds].sort());
  });
});
