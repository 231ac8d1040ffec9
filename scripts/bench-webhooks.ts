// npm run bench:webhooks [-- --orders 10000 --failing 300 --phases steady,backlog,failing,isolation]
// Webhook delivery measured end to end on PostgreSQL: two server processes
// (each with its webhook worker), a receiver in a third that verifies every
// signature with `standardwebhooks`. N order updates go through the REST API;
// the report says how many deliveries arrived (lost, duplicated), the lag from
// change to receipt, deliveries per second, how a receiver that fails for
// a while (503, then timeouts, then back) is caught up by the retries, and
// (isolation) a healthy endpoint's lag alone and while another buyer's ten
// endpoints never answer. `--phases isolation --orders 200 --failing 0` runs
// that last one alone, in about a minute.
// Figures go to docs/design/performance.md; never asserted in tests.

import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { dropDatabase, migrate, recreateDatabase } from "../bench/dataset.js";
import { generateApiKey, hashApiKey, visibleKeyPrefix } from "../src/auth/api-key-format.js";
import { poolOptions } from "../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../src/config.js";
import { openDatabase } from "../src/db/database.js";
import { parseDatabaseUrl } from "../src/db/database-url.js";
import { projectRoot } from "../src/project-root.js";

const { values: options } = parseArgs({
  options: {
    orders: { type: "string", default: "10000" },
    failing: { type: "string", default: "300" },
    concurrency: { type: "string", default: "16" },
    phases: { type: "string", default: "steady,backlog,failing,isolation" },
    "isolation-seconds": { type: "string", default: "15" },
    "isolation-rate": { type: "string", default: "10" },
  },
});
const PHASES = new Set(options.phases.split(","));
const ISOLATION_SECONDS = Number(options["isolation-seconds"]);
const ISOLATION_RATE = Number(options["isolation-rate"]);
/** The other buyer's endpoints that never answer, in the isolation phase. */
const HANGING_ENDPOINTS = 10;
const ORDERS = Number(options.orders);
const FAILING = Number(options.failing);
const CONCURRENCY = Number(options.concurrency);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = "bpa_bench_webhooks";
const databaseUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  return url.toString();
})();
const SECRET_KEY = Buffer.alloc(32, 11).toString("base64");
const children: ChildProcess[] = [];

function start(name: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: projectRoot(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output.slice(-2000)}`)));
  });
}

async function seed(): Promise<{ apiKey: string; otherApiKey: string; orderIds: string[] }> {
  const database = await openDatabase(parseDatabaseUrl(databaseUrl), poolOptions(DEFAULT_CONFIG));
  const { prisma } = database;
  const buyerId = randomUUID();
  const supplierId = randomUUID();
  const productId = randomUUID();
  const buyerProductId = randomUUID();
  const approvalId = randomUUID();
  const deliverySiteId = randomUUID();
  const orderTypeId = randomUUID();
  const apiKey = generateApiKey();
  await prisma.buyer.create({ data: { id: buyerId, name: "Webhook Bench" } });
  await prisma.apiKey.create({
    data: {
      id: randomUUID(),
      buyerId,
      hash: hashApiKey(apiKey),
      prefix: visibleKeyPrefix(apiKey),
      name: "bench",
    },
  });
  // Another buyer, whose endpoints never answer in the isolation phase.
  const otherBuyerId = randomUUID();
  const otherApiKey = generateApiKey();
  await prisma.buyer.create({ data: { id: otherBuyerId, name: "Webhook Bench, hanging endpoints" } });
  await prisma.apiKey.create({
    data: {
      id: randomUUID(),
      buyerId: otherBuyerId,
      hash: hashApiKey(otherApiKey),
      prefix: visibleKeyPrefix(otherApiKey),
      name: "bench",
    },
  });
  await prisma.supplier.create({ data: { id: supplierId, name: "Bench Supplier" } });
  await prisma.supplierConnection.create({
    data: { buyerId, supplierId, relationship: "approved_supplier" },
  });
  await prisma.product.create({
    data: { id: productId, name: "Glycerin", normalizedName: "glycerin", productType: "RawMaterial" },
  });
  await prisma.buyerProduct.create({
    data: {
      id: buyerProductId,
      buyerId,
      productId,
      rawMaterialName: "Glycerin",
      measurementUnit: "kg",
      productType: "RawMaterial",
    },
  });
  await prisma.buyerProductApproval.create({
    data: { id: approvalId, buyerId, buyerProductId, supplierId, approvalStatus: "approved" },
  });
  await prisma.deliverySite.create({
    data: {
      id: deliverySiteId,
      buyerId,
      siteName: "Plant",
      addressStreet: "1 Road",
      addressCity: "City",
      addressState: "ST",
      addressPostcode: "1000",
      addressCountry: "AU",
      addressFullAddress: "1 Road, City",
    },
  });
  await prisma.orderType.create({ data: { id: orderTypeId, typeOf: "local" } });
  const orderIds = Array.from({ length: ORDERS + FAILING }, () => randomUUID());
  for (let offset = 0; offset < orderIds.length; offset += 1000) {
    await prisma.order.createMany({
      data: orderIds.slice(offset, offset + 1000).map((id, index) => ({
        id,
        buyerId,
        supplierId,
        buyerProductApprovalId: approvalId,
        deliverySiteId,
        orderTypeId,
        priceType: "ex_stock" as const,
        quantity: "4",
        pricePerUom: "2.5",
        taxAmount: "1",
        taxPercentage: "10",
        priceTotal: "11",
        currency: "AUD",
        orderReference: `B-${offset + index}`,
        orderStatus: "quote_selected" as const,
      })),
    });
  }
  // The seed's own events are rendered before the measurement starts.
  await prisma.changeLogUnrendered.deleteMany({});
  await database.close();
  return { apiKey, otherApiKey, orderIds };
}

interface ReceiverStats {
  requests: number;
  unique: number;
  badSignatures: number;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  /** Events whose lag the percentiles cover (with `?since`, those first received from then on). */
  lagged: number;
  firstAt: number;
  lastAt: number;
  ids: string[];
}

async function main() {
  await recreateDatabase(ADMIN_URL, NAME);
  await migrate(databaseUrl);
  const { apiKey, otherApiKey, orderIds } = await seed();
  const receiver = await start(
    "receiver",
    [path.join("bench", "webhook-receiver.ts")],
    {},
    /receiver on (\S+)/,
  );
  const serverEnv = {
    DATABASE_URL: databaseUrl,
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    WEBHOOK_SECRET_KEY: SECRET_KEY,
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOK_RETRY_SCHEDULE: "1s,2s,4s,8s,8s,8s,8s,8s",
    WEBHOOK_TIMEOUT: "2s",
    WEBHOOK_LEASE: "30s",
  };
  const servers = await Promise.all(
    ["a", "b"].map((name) =>
      start(
        `server ${name}`,
        [path.join("src", "server.ts")],
        { ...serverEnv, LOG_LEVEL: "info" },
        /listening on http:\/\/[\w.]+:(\d+)/,
      ).then((port) => `http://127.0.0.1:${port}`),
    ),
  );
  const api = (index: number) => `${servers[index % servers.length]}/api/public/buyer/v1`;
  const headers = { "x-api-key": apiKey, "content-type": "application/json" };

  const created = await fetch(`${api(0)}/webhook_endpoints`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: `${receiver}/hooks`, enabled_events: ["order.updated"] }),
  });
  const endpoint = (await created.json()) as { id: string; secret: string };
  await fetch(`${receiver}/_secret`, { method: "POST", body: endpoint.secret });
  const stats = async () => (await (await fetch(`${receiver}/_stats`)).json()) as ReceiverStats;
  const setMode = (mode: string) => fetch(`${receiver}/_mode`, { method: "POST", body: mode });

  async function updateOrders(ids: string[]): Promise<number> {
    let next = 0;
    let failures = 0;
    let retried503 = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, lane) => {
        while (next < ids.length) {
          const index = next++;
          // As a careful client does: a 503 (overloaded) changed nothing and says when to retry.
          for (let attempt = 0; attempt < 10; attempt += 1) {
            const response = await fetch(`${api(lane + attempt)}/orders/${ids[index]}`, {
              method: "PATCH",
              headers,
              body: JSON.stringify({ purchase_order_reference: `PO-${index}` }),
            });
            const text = await response.text();
            if (response.status === 200) break;
            if (response.status !== 503 && failures < 3)
              console.log(`  PATCH answered ${response.status}: ${text.slice(0, 300)}`);
            if (response.status === 503) {
              retried503 += 1;
              await new Promise((resolve) =>
                setTimeout(resolve, Number(response.headers.get("retry-after") ?? "1") * 1000),
              );
              continue;
            }
            failures += 1;
            break;
          }
        }
      }),
    );
    if (retried503 > 0)
      console.log(`  (${retried503} answers were 503 overloaded, retried after Retry-After)`);
    return failures;
  }

  async function waitFor(count: number, timeoutMs: number): Promise<ReceiverStats> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await stats();
      if (current.unique >= count || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  // Steady load: N updates, all delivered once.
  let delivered = await stats();
  if (PHASES.has("steady")) {
    const steady = orderIds.slice(0, ORDERS);
    const started = Date.now();
    const updateFailures = await updateOrders(steady);
    const updatedIn = Date.now() - started;
    delivered = await waitFor(ORDERS - updateFailures, 600_000);
    const spanS = (delivered.lastAt - delivered.firstAt) / 1000;
    console.log(
      `steady: ${ORDERS} order updates through PATCH /orders/{id} over 2 processes in ${(updatedIn / 1000).toFixed(1)} s (${updateFailures} not 200)`,
    );
    console.log(
      `  deliveries: ${delivered.unique} of ${ORDERS - updateFailures} events, lost ${ORDERS - updateFailures - delivered.unique}, ` +
        `requests ${delivered.requests} (duplicates ${delivered.requests - delivered.unique}), bad signatures ${delivered.badSignatures}`,
    );
    console.log(`  lag change → receipt: p50 ${delivered.lagP50Ms} ms, p99 ${delivered.lagP99Ms} ms`);
    console.log(`  first to last receipt: ${spanS.toFixed(1)} s (bounded by the update rate)`);
  }

  if (PHASES.has("backlog")) {
    // Throughput alone: every event of the steady phase queued again at once (as redelivery
    // does, in one statement), drained by the two processes' workers.
    const queueDatabase = await openDatabase(parseDatabaseUrl(databaseUrl), poolOptions(DEFAULT_CONFIG));
    const requestsBefore = (await stats()).requests;
    const drainStarted = Date.now();
    await queueDatabase.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (id, buyer_id, endpoint_id, event_id, updated_at)
      SELECT gen_random_uuid(), buyer_id, ${endpoint.id}::uuid, id, now() FROM webhook_events WHERE type = 'order.updated'`;
    await queueDatabase.prisma.$executeRaw`SELECT pg_notify('webhook_work', '')`;
    await queueDatabase.close();
    for (;;) {
      const current = await stats();
      if (current.requests - requestsBefore >= delivered.unique || Date.now() - drainStarted > 600_000) {
        const seconds = (Date.now() - drainStarted) / 1000;
        console.log(
          `backlog: ${current.requests - requestsBefore} deliveries queued at once drained in ${seconds.toFixed(1)} s: ` +
            `${((current.requests - requestsBefore) / seconds).toFixed(0)} deliveries/s with 2 processes, bad signatures ${current.badSignatures}`,
        );
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  if (PHASES.has("failing")) {
    // A receiver that fails for a while: 503 first, then no answer, then back.
    const failing = orderIds.slice(ORDERS);
    await setMode("503");
    const before = delivered.unique;
    await updateOrders(failing);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await setMode("hang");
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await setMode("ok");
    const recoveredFrom = Date.now();
    const after = await waitFor(before + FAILING, 300_000);
    console.log(
      `failing receiver: ${FAILING} updates while it answered 503 (4 s), then nothing (6 s), then 2xx: ` +
        `${after.unique - before} of ${FAILING} delivered ${((after.lastAt - recoveredFrom) / 1000).toFixed(1)} s after recovery, ` +
        `bad signatures ${after.badSignatures}`,
    );
    const deliveries = (await (
      await fetch(`${api(0)}/webhook_endpoints/${endpoint.id}/deliveries?limit=1`, { headers })
    ).json()) as {
      attempts: { attempt: number; status_code: number | null; error: string | null; created_at: string }[];
    }[];
    const [latest] = deliveries;
    for (const attempt of latest?.attempts ?? []) {
      console.log(
        `  attempt ${attempt.attempt}: ${attempt.created_at} ${attempt.status_code ?? "-"} ${attempt.error ?? "ok"}`,
      );
    }
  }

  if (PHASES.has("isolation")) await isolation();

  /**
   * A healthy endpoint's lag from change to receipt: alone, then while another buyer's
   * HANGING_ENDPOINTS endpoints never answer and have a backlog of due deliveries older than
   * every healthy one. Updates are paced (ISOLATION_RATE a second), so the lag is the delivery's.
   */
  async function isolation(): Promise<void> {
    const silent = await start(
      "silent receiver",
      [path.join("bench", "webhook-receiver.ts")],
      {},
      /receiver on (\S+)/,
    );
    await fetch(`${silent}/_mode`, { method: "POST", body: "hang" });
    const otherHeaders = { "x-api-key": otherApiKey, "content-type": "application/json" };
    const hangingIds: string[] = [];
    for (let index = 0; index < HANGING_ENDPOINTS; index += 1) {
      const response = await fetch(`${api(index)}/webhook_endpoints`, {
        method: "POST",
        headers: otherHeaders,
        body: JSON.stringify({ url: `${silent}/hooks/${index}`, enabled_events: ["order.updated"] }),
      });
      hangingIds.push(((await response.json()) as { id: string }).id);
    }

    async function pacedUpdates(): Promise<ReceiverStats> {
      const since = Date.now();
      const count = ISOLATION_SECONDS * ISOLATION_RATE;
      const before = (await stats()).unique;
      for (let index = 0; index < count; index += 1) {
        const due = since + (index * 1000) / ISOLATION_RATE;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        await fetch(`${api(index)}/orders/${orderIds[index % orderIds.length]}`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ purchase_order_reference: `ISO-${since}-${index}` }),
        }).then((response) => response.text());
      }
      await waitFor(before + count, 60_000);
      return (await (await fetch(`${receiver}/_stats?since=${since}`)).json()) as ReceiverStats;
    }

    const alone = await pacedUpdates();
    // The other buyer's backlog: 100 events, each due at its ten endpoints now.
    const queueDatabase = await openDatabase(parseDatabaseUrl(databaseUrl), poolOptions(DEFAULT_CONFIG));
    await queueDatabase.prisma.$executeRaw`
      WITH events AS (
        INSERT INTO webhook_events (id, buyer_id, type, data)
        SELECT gen_random_uuid(), buyer_id, 'order.updated', '{"object": {}}'::jsonb
        FROM webhook_endpoints, generate_series(1, 100)
        WHERE id = ${hangingIds[0]}::uuid
        RETURNING id, buyer_id
      )
      INSERT INTO webhook_deliveries (id, buyer_id, endpoint_id, event_id, updated_at)
      SELECT gen_random_uuid(), events.buyer_id, endpoint.id, events.id, now()
      FROM events JOIN webhook_endpoints endpoint ON endpoint.buyer_id = events.buyer_id`;
    await queueDatabase.prisma.$executeRaw`SELECT pg_notify('webhook_work', '')`;
    // Until every process holds the hanging endpoints' attempts it may.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const hanging = await pacedUpdates();
    const [held] = await queueDatabase.prisma.$queryRaw<{ attempts: bigint; open: bigint }[]>`
      SELECT (SELECT count(*) FROM webhook_delivery_attempts attempt
              JOIN webhook_deliveries delivery ON delivery.id = attempt.delivery_id
              WHERE delivery.endpoint_id = ANY(${hangingIds}::uuid[])) AS attempts,
             (SELECT count(*) FROM webhook_deliveries
              WHERE endpoint_id = ANY(${hangingIds}::uuid[]) AND status = 'delivering') AS open`;
    await queueDatabase.close();
    const count = ISOLATION_SECONDS * ISOLATION_RATE;
    const ratio =
      alone.lagged === count && hanging.lagged === count && alone.lagP99Ms && hanging.lagP99Ms !== null
        ? (hanging.lagP99Ms / alone.lagP99Ms).toFixed(2)
        : "not measured: not every event arrived within 60 s of the last update";
    console.log(
      `isolation: ${count} updates at ${ISOLATION_RATE}/s to a healthy endpoint, ` +
        `alone, then while another buyer's ${HANGING_ENDPOINTS} endpoints never answer (timeout 2 s)`,
    );
    console.log(
      `  alone: lag p50 ${alone.lagP50Ms} ms, p99 ${alone.lagP99Ms} ms (${alone.lagged} of ${count} events)`,
    );
    console.log(
      `  beside the hanging endpoints: lag p50 ${hanging.lagP50Ms} ms, p99 ${hanging.lagP99Ms} ms (${hanging.lagged} of ${count} events); ` +
        `their attempts meanwhile ${held?.attempts}, under lease at the end ${held?.open}`,
    );
    console.log(`  p99 ratio ${ratio} (goal: at most 2)`);
  }
}

try {
  await main();
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  await dropDatabase(ADMIN_URL, NAME).catch(() => {});
}
