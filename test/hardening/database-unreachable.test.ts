// While PostgreSQL cannot be reached, both APIs answer 503 `unavailable` with
// Retry-After (as /readyz reports 503), not 500, and serve again once it is
// back. The test stops and starts a cluster of its own, never the machine's.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { createLogger } from "../../src/logger.js";
import { type Cluster, postgresServerBinaries, startCluster } from "../../tools/postgres-clusters.js";
import { graphql } from "../graphql/helpers.js";
import { expectProblem } from "../rest/helpers.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, testConfig } from "../support/test-app.js";

const binaries = postgresServerBinaries();
if (!binaries) {
  console.warn(
    "test/hardening/database-unreachable skipped: the PostgreSQL server binaries are missing; install PostgreSQL's server package or set PG_BIN",
  );
}

describe.runIf(binaries)("requests while the database cannot be reached", { timeout: 180_000 }, () => {
  let cluster: Cluster;
  let database: Database;
  let app: App;
  let buyer: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    cluster = await startCluster();
    await cluster.createDatabase("buyer_api");
    database = await openDatabase(parseDatabaseUrl(cluster.url("buyer_api")), CONFIGURED_POOL);
    await migrateDatabase(database);
    buyer = await seedBuyer(database, "Unreachable");
    [orderId = ""] = await seedOrders(database, buyer, [
      { createdAt: new Date("2025-01-01"), purchaseOrderReference: "PO-BEFORE" },
    ]);
    app = createApp({ config: testConfig(), database, logger: createLogger("silent") });
    // Served while it is up; then it stops.
    expect((await callApi(app, "GET", `/orders/${orderId}`, { key: buyer.apiKey })).status).toBe(200);
    await cluster.stop();
  });
  afterAll(async () => {
    await database?.close();
    cluster?.close();
  });

  it("answers REST reads and writes 503 unavailable with Retry-After", async () => {
    const read = await callApi(app, "GET", "/orders", { key: buyer.apiKey });
    expectProblem(read, 503, "unavailable");
    expect(read.headers.get("retry-after")).toBe("5");
    const write = await callApi(app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      body: { purchase_order_reference: "PO-DURING" },
    });
    expectProblem(write, 503, "unavailable");
    expect(write.headers.get("retry-after")).toBe("5");
  });

  it("answers GraphQL with an UNAVAILABLE error, HTTP 503 and Retry-After", async () => {
    const response = await graphql(
      app,
      `mutation ($id: UUID!) { updateOrder(id: $id, input: { purchaseOrderReference: "PO-DURING" }) { id } }`,
      { key: buyer.apiKey, variables: { id: orderId } },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.errors?.map((error) => error.extensions?.code)).toEqual(["UNAVAILABLE"]);
  });

  it("reports not ready meanwhile", async () => {
    expect((await app.fetch("http://localhost/readyz")).status).toBe(503);
  });

  // Last: the database comes back.
  it("serves again once the database is back, with nothing written meanwhile", async () => {
    await cluster.start();
    const order = await eventually(async () => {
      const response = await callApi(app, "GET", `/orders/${orderId}`, { key: buyer.apiKey });
      return response.status === 200 ? response.body : null;
    }, 30_000);
    expect(order).toMatchObject({ purchase_order_reference: "PO-BEFORE" });
  });
});
