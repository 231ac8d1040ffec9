// With WEB_CONCURRENCY=2 the service is two worker processes behind one
// port. A Prometheus scrape reaches one of them; it must still see the whole
// service: every scrape counts the requests both workers served.
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childrenOf } from "../../bench/proc.js";
import { eventually } from "../support/eventually.js";
import { connectionsHeldBy, establishedOn } from "../support/proc.js";
import {
  httpGet,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// Workers share PostgreSQL; PGlite belongs to one process. The spread over
// workers is read from Linux's /proc.
const TOKEN = "cluster-metrics-token-0123";

describe.runIf(onPostgres && process.platform === "linux")(
  "GET /metrics with WEB_CONCURRENCY=2",
  { timeout: 120_000 },
  () => {
    let database: TestDatabase;
    let server: ServerProcess;

    beforeAll(async () => {
      database = await createTestDatabase();
      server = await startServerProcess({
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: "2",
        METRICS_TOKEN: TOKEN,
      });
      await eventually(async () => {
        const listening = server.output().match(/listening on/g)?.length ?? 0;
        return listening === 2 ? true : undefined;
      });
    }, 90_000);
    afterAll(async () => {
      await stopServerProcess(server);
      await database?.close();
    });

    it("answers every scrape with the requests of both workers, under the names one process uses", async () => {
      const port = Number(new URL(server.baseUrl).port);
      // The kernel gives each connection to a worker by a hash of its addresses: eight more
      // connections at a time, three requests on each, until both workers hold some.
      const agents: Agent[] = [];
      let requests = 0;
      let held: number[] = [];
      while (held.length < 2 && agents.length < 8) {
        const agent = new Agent({ keepAlive: true, maxSockets: 8 });
        agents.push(agent);
        for (let round = 0; round < 3; round += 1) {
          const answers = await Promise.all(
            Array.from({ length: 8 }, () => httpGet(`${server.baseUrl}/healthz`, { agent })),
          );
          expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
          requests += 8;
        }
        // The primary's children are the two workers (and tsx's compiler service).
        const inodes = establishedOn(port);
        held = childrenOf(server.child.pid ?? 0)
          .map((pid) => connectionsHeldBy(pid, inodes))
          .filter((count) => count > 0);
      }
      // The connections, and so the requests, went to both workers.
      expect(held).toHaveLength(2);
      for (const agent of agents) agent.destroy();

      for (let scrape = 0; scrape < 4; scrape += 1) {
        const metrics = await httpGet(`${server.baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(metrics.status).toBe(200);
        expect(metrics.body).toMatch(
          new RegExp(
            `^http_requests_total\\{route="/healthz",method="GET",status="200"\\} ${requests}$`,
            "m",
          ),
        );
        expect(metrics.body).toMatch(
          new RegExp(
            `^http_request_duration_seconds_count\\{route="/healthz",method="GET"\\} ${requests}$`,
            "m",
          ),
        );
        expect(metrics.body).toContain("process_resident_memory_bytes");
      }
    });

    it("still needs the bearer token", async () => {
      expect((await httpGet(`${server.baseUrl}/metrics`)).status).toBe(401);
    });
  },
);
