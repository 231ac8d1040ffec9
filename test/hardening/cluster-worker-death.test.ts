// With WEB_CONCURRENCY=2, a worker killed under load (the kernel's OOM
// killer, kill -9) must not leave a client waiting: every request is answered,
// or its connection fails at once so that the client can retry.
import { readdirSync, readFileSync } from "node:fs";
import { get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

/** A connection that has neither an answer nor an error by then is one the client would wait on forever. */
const SILENCE_MS = 10_000;

/** The worker processes of the primary `pid`, read from Linux's /proc. */
function workersOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The command name in parentheses may hold spaces; the parent pid is the second field after it.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("server.js");
      } catch {
        return false;
      }
    })
    .map(Number);
}

type Outcome = "answered" | "failed" | "silent";

/** One GET on a new connection: answered, failed (reset, closed), or silent for SILENCE_MS. */
function getOnNewConnection(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode === 200 ? "answered" : "failed"));
      response.on("error", () => resolve("failed"));
    });
    request.setTimeout(SILENCE_MS, () => {
      resolve("silent");
      request.destroy();
    });
    request.on("error", () => resolve("failed"));
  });
}

describe.runIf(onPostgres && process.platform === "linux")(
  "a worker killed under load with WEB_CONCURRENCY=2",
  { timeout: 120_000 },
  () => {
    let database: TestDatabase;
    let server: ServerProcess;

    beforeAll(async () => {
      database = await createTestDatabase();
      server = await startServerProcess({ DATABASE_URL: database.url, WEB_CONCURRENCY: "2" });
      await eventually(
        async () => ((server.output().match(/listening on/g)?.length ?? 0) >= 2 ? true : null),
        120_000,
      );
    }, 240_000);
    afterAll(async () => {
      await stopServerProcess(server);
      await database?.close();
    });

    it("leaves no request without an answer or an error", async () => {
      const url = `${server.baseUrl}/healthz`;
      const outcomes: Outcome[] = [];
      let loading = true;
      // Clients that open a new connection for each request keep connections
      // in flight to every worker at all times.
      const client = async () => {
        while (loading) outcomes.push(await getOnNewConnection(url));
      };
      const clients = Array.from({ length: 16 }, () => client());
      await eventually(async () => (outcomes.length >= 100 ? true : null), 60_000);
      const [victim] = workersOf(server.child.pid ?? 0);
      expect(victim).toBeDefined();
      process.kill(victim ?? 0, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 500));
      loading = false;
      await Promise.all(clients);

      expect(outcomes.filter((outcome) => outcome === "silent")).toEqual([]);
      expect(outcomes.filter((outcome) => outcome === "answered").length).toBeGreaterThan(100);
      // The primary started another worker, and the service answers on.
      await eventually(async () => (workersOf(server.child.pid ?? 0).length === 2 ? true : null), 60_000);
      expect(await getOnNewConnection(url)).toBe("answered");
    });
  },
);
