// Reads on a real streaming replica are never stale. The test starts its own
// PostgreSQL primary and a replica of it (two clusters on free local ports,
// the replica holding every commit back by recovery_min_apply_delay, so that
// staleness would show), two gateway processes reading on the replica, and a
// reference app over the primary alone. Random steps of writes and reads go
// through the gateways; every read must equal what the primary returns at
// that moment. Midway the replica is stopped (no request may fail) and
// started again (it must serve reads again). BPA_REPLICATION_STEPS sets the
// number of steps, BPA_REPLICATION_SEED replays a run.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { createLogger } from "../../src/logger.js";
import {
  postgresServerBinaries,
  type ReplicatedClusters,
  startReplicatedClusters,
} from "../../tools/postgres-clusters.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { APP_BASE_URL, PUBLIC_BASE_URL, testConfig } from "../support/test-app.js";

const STEPS = Number(process.env.BPA_REPLICATION_STEPS ?? 1200);
const SEED = Number(process.env.BPA_REPLICATION_SEED ?? Math.floor(Math.random() * 2 ** 31));
const APPLY_DELAY_MS = 200;
const BUYERS = 6;
const ORDERS_PER_BUYER = 4;
const DATABASE = "buyer_api";

const binaries = postgresServerBinaries();
if (!binaries) {
  console.warn(
    "test/replication skipped: the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are missing; install PostgreSQL's server package or set PG_BIN",
  );
}

/** A small seeded generator, so that a failing run can be replayed with BPA_REPLICATION_SEED. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

const READS = [
  (order: string) => ({ rest: `/orders/${order}` }),
  () => ({ rest: "/orders?limit=3" }),
  () => ({ rest: "/buyer_product_approvals?limit=5" }),
  () => ({
    graphql:
      "{ orders(first: 10) { totalCount edges { node { id purchaseOrderReference supplierOrderReference updatedAt supplier { name } } } } }",
  }),
] as const;

interface Answer {
  status: number;
  body: unknown;
}

describe.runIf(binaries)("reads on a streaming replica", { timeout: 600_000 }, () => {
  let clusters: ReplicatedClusters;
  let primary: Database;
  let reference: App;
  const gateways: ServerProcess[] = [];
  const buyers: SeededBuyer[] = [];
  const orders = new Map<string, string[]>();

  beforeAll(async () => {
    clusters = await startReplicatedClusters({ applyDelayMs: APPLY_DELAY_MS });
    await clusters.createDatabase(DATABASE);
    primary = await openDatabase(parseDatabaseUrl(clusters.primaryUrl(DATABASE)), CONFIGURED_POOL);
    await migrateDatabase(primary);
    for (let index = 0; index < BUYERS; index++) {
      const buyer = await seedBuyer(primary, `Replicated ${index}`);
      buyers.push(buyer);
      orders.set(
        buyer.buyerId,
        await seedOrders(
          primary,
          buyer,
          Array.from({ length: ORDERS_PER_BUYER }, (_, n) => ({
            createdAt: new Date(Date.UTC(2025, 3, 1, index, n)),
          })),
        ),
      );
    }
    await eventually(async () => (await clusters.replicaCaughtUp(DATABASE)) || null, 10_000);
    reference = createApp({ config: testConfig(), database: primary, logger: createLogger("silent") });
    for (let index = 0; index < 2; index++) {
      gateways.push(
        await startServerProcess({
          DATABASE_URL: clusters.primaryUrl(DATABASE),
          DATABASE_REPLICA_URLS: clusters.replicaUrl(DATABASE),
          APP_BASE_URL,
          PUBLIC_BASE_URL,
          RATE_LIMIT_PER_MINUTE: "1000000",
          // Every read executes: a cached answer would prove nothing about the replica.
          RESPONSE_CACHE_MAX_BYTES: "0",
          WEBHOOK_WORKER_ENABLED: "false",
          DATABASE_POOL_SIZE: "4",
        }),
      );
    }
  });

  afterAll(async () => {
    for (const gateway of gateways) await stopServerProcess(gateway);
    await primary?.close();
    clusters?.close();
  });

  /** A request to a gateway, or to the reference app over the primary. */
  async function ask(
    target: ServerProcess | App,
    key: string,
    request: { rest?: string; graphql?: string; method?: string; body?: unknown },
  ): Promise<Answer> {
    const path = request.graphql !== undefined ? "/graphql" : `/api/public/buyer/v1${request.rest}`;
    const init = {
      method: request.method ?? (request.graphql !== undefined ? "POST" : "GET"),
      headers: { "x-api-key": key, "content-type": "application/json" },
      body:
        request.graphql !== undefined
          ? JSON.stringify({ query: request.graphql })
          : request.body === undefined
            ? undefined
            : JSON.stringify(request.body),
    };
    const response =
      "baseUrl" in target
        ? await fetch(`${target.baseUrl}${path}`, init)
        : await target.fetch(`${PUBLIC_BASE_URL}${path}`, init);
    const parsed = (await response.json()) as Record<string, unknown>;
    // GraphQL's extensions report this request's cost and rate limit, which differ per process.
    return { status: response.status, body: request.graphql !== undefined ? parsed.data : parsed };
  }

  /** Reads each gateway has had served by the replica, from its /metrics. */
  async function replicaReads(): Promise<number> {
    let total = 0;
    for (const gateway of gateways) {
      const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
      for (const match of text.matchAll(/^database_reads_total\{server="([^"]+)"\} (\d+)/gm)) {
        if (match[1] !== "primary") total += Number(match[2]);
      }
    }
    return total;
  }

  it("answers every read as the primary does at that moment, with the replica stopped and started midway", async () => {
    const random = randomFrom(SEED);
    const context = `seed ${SEED} (BPA_REPLICATION_SEED=${SEED} replays it)`;
    const stopAt = Math.floor(STEPS / 2);
    const startAt = Math.floor((STEPS * 3) / 4);
    let stopping: Promise<void> | null = null;
    let starting: Promise<void> | null = null;
    let readsBeforeStop = 0;
    let readsAtRestart = 0;
    let replicaBehindAfterWrite = 0;
    let writes = 0;
    let reads = 0;

    for (let step = 0; step < STEPS; step++) {
      if (step === stopAt) {
        readsBeforeStop = await replicaReads();
        // Stopped while the steps go on: requests meet it going down.
        stopping = clusters.stopReplica();
      }
      if (step === startAt) {
        await stopping;
        readsAtRestart = await replicaReads();
        starting = clusters.startReplica();
      }
      const buyer = buyers[random.below(buyers.length)] as SeededBuyer;
      const gateway = gateways[random.below(gateways.length)] as ServerProcess;
      const buyerOrders = orders.get(buyer.buyerId) ?? [];
      const order = buyerOrders[random.below(buyerOrders.length)] as string;
      const where = `step ${step}, ${context}`;

      if (random.chance(0.15)) {
        writes++;
        const kind = random.below(3);
        if (kind === 0) {
          const answer = await ask(gateway, buyer.apiKey, {
            rest: `/orders/${order}`,
            method: "PATCH",
            body: { purchase_order_reference: `PO-${step}` },
          });
          expect(answer.status, where).toBe(200);
        } else if (kind === 1) {
          const answer = await ask(gateway, buyer.apiKey, {
            graphql: `mutation { updateOrder(id: "${order}", input: { supplierOrderReference: "SO-${step}" }) { id } }`,
          });
          expect(answer.status, where).toBe(200);
          expect(answer.body, where).toEqual({ updateOrder: { id: expect.any(String) } });
        } else {
          // Shared data, written outside the API: every buyer that shows the supplier gets a new version.
          await primary.query("UPDATE suppliers SET name = $1 WHERE id = $2", [
            `Supplier ${step}`,
            buyer.supplierId,
          ]);
        }
        if (step < stopAt && !(await clusters.replicaCaughtUp(DATABASE))) replicaBehindAfterWrite++;
        continue;
      }

      reads++;
      const read = READS[random.below(READS.length)]?.(order) ?? {};
      const served = await ask(gateway, buyer.apiKey, read);
      const truth = await ask(reference, buyer.apiKey, read);
      expect(served.status, `${where}: ${JSON.stringify(read)}`).toBe(200);
      expect(served, `${where}: ${JSON.stringify(read)}`).toEqual(truth);
    }
    await starting;

    expect(reads + writes).toBe(STEPS);
    expect(STEPS).toBeGreaterThanOrEqual(1000);
    // The replica was behind right after writes, so a read served from it unchecked would have been stale.
    expect(replicaBehindAfterWrite).toBeGreaterThan(0);
    // It served reads before it stopped, and again once started.
    expect(readsBeforeStop).toBeGreaterThan(0);
    expect(await replicaReads()).toBeGreaterThan(readsAtRestart);
  });
});
