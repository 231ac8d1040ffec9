// Which replicas a process uses, on a real primary and streaming replica of
// its own: one with another schema version is refused from the start, one
// further behind than the lag bound is skipped while it is, and one that is
// promoted is dropped. Each is said in /readyz, which stays 200 for the primary.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import type { ReplicaStatus } from "../../src/db/replicas.js";
import { createLogger } from "../../src/logger.js";
import {
  postgresServerBinaries,
  type ReplicatedClusters,
  startReplicatedClusters,
} from "../../tools/postgres-clusters.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { eventually } from "../support/eventually.js";
import { testConfig } from "../support/test-app.js";

const binaries = postgresServerBinaries();
const APPLY_DELAY_MS = 800;

describe.runIf(binaries)("replica health", { timeout: 120_000 }, () => {
  let clusters: ReplicatedClusters;
  const opened: Database[] = [];

  beforeAll(async () => {
    clusters = await startReplicatedClusters({ applyDelayMs: APPLY_DELAY_MS });
    for (const name of ["current", "behind"]) {
      await clusters.createDatabase(name);
      const database = await openDatabase(parseDatabaseUrl(clusters.primaryUrl(name)), CONFIGURED_POOL);
      await migrateDatabase(database);
      await database.close();
    }
    // A database on the same cluster whose newest migration is gone: another schema version.
    const behind = await openDatabase(parseDatabaseUrl(clusters.primaryUrl("behind")), CONFIGURED_POOL);
    await behind.query(
      `DELETE FROM "_prisma_migrations" WHERE migration_name = (SELECT max(migration_name) FROM "_prisma_migrations")`,
      [],
    );
    await behind.close();
    const current = await openDatabase(parseDatabaseUrl(clusters.primaryUrl("current")), CONFIGURED_POOL);
    await current.query("CREATE TABLE ticks (at timestamptz)", []);
    await current.close();
    await eventually(async () => (await clusters.replicaCaughtUp("current")) || null, 10_000);
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    clusters?.close();
  });

  const open = async (replicaDatabase: string, maxLagMs = 5_000) => {
    const changes: ReplicaStatus[] = [];
    const database = await openDatabase(parseDatabaseUrl(clusters.primaryUrl("current")), {
      ...CONFIGURED_POOL,
      replicas: {
        urls: [clusters.replicaUrl(replicaDatabase)],
        maxLagMs,
        onChange: (status) => changes.push(status),
      },
    });
    opened.push(database);
    return { database, changes };
  };
  const readiness = async (database: Database) => {
    const app = createApp({ config: testConfig(), database, logger: createLogger("silent") });
    const response = await app.fetch("http://localhost/readyz");
    return { status: response.status, body: await response.json() };
  };

  it("refuses a replica with another schema version from the start, and says so in /readyz", async () => {
    const { database, changes } = await open("behind");
    const [replica] = database.replicas();
    expect(replica?.state).toBe("refused");
    expect(replica?.reason).toMatch(/^schema version \S+, the primary's \S+$/);
    expect(changes.at(-1)?.state).toBe("refused");
    expect(await readiness(database)).toEqual({
      status: 200,
      body: {
        status: "ready",
        replicas: [{ name: replica?.name, state: "refused", reason: replica?.reason }],
      },
    });
  });

  it("uses a replica that has the schema, and skips it while it lags past the bound", async () => {
    const healthy = await open("current");
    await eventually(async () => healthy.database.replicas()[0]?.state === "in_use" || null);
    expect((await readiness(healthy.database)).body).toEqual({
      status: "ready",
      replicas: [{ name: healthy.database.replicas()[0]?.name, state: "in_use" }],
    });

    // Commits held back 800 ms, writes every 50 ms: always more than 300 ms behind.
    const strict = await open("current", 300);
    let writing = true;
    const writes = (async () => {
      while (writing) {
        await strict.database.query("INSERT INTO ticks (at) VALUES (now())", []);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      const lagging = await eventually(async () => {
        const [replica] = strict.database.replicas();
        return replica?.state === "lagging" ? replica : null;
      });
      expect(lagging.reason).toMatch(/s behind the primary$/);
      expect(lagging.lagSeconds).toBeGreaterThan(0.3);
    } finally {
      writing = false;
      await writes;
    }
    // Caught up once the writes stop.
    await eventually(async () => strict.database.replicas()[0]?.state === "in_use" || null, 10_000);
  });

  it("drops a replica once it is promoted", async () => {
    const { database } = await open("current");
    await eventually(async () => database.replicas()[0]?.state === "in_use" || null);
    await clusters.promoteReplica();
    const dropped = await eventually(async () => {
      const [replica] = database.replicas();
      return replica?.state === "refused" ? replica : null;
    });
    expect(dropped.reason).toBe("not in recovery: promoted, or not a streaming replica");
    const { body } = await readiness(database);
    expect(body).toMatchObject({ status: "ready", replicas: [{ state: "refused" }] });
  });
});
