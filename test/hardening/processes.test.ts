import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/project-root.js";
import { CLI_ENTRY } from "../support/compiled.js";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { httpGet, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

// Several server processes on one PostgreSQL must behave as one service.
// PGlite belongs to one process, so these run where DATABASE_URL names PostgreSQL.

describe.runIf(onPostgres)("several processes on one PostgreSQL", { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Processes");
    await seedOrders(
      database,
      buyer,
      Array.from({ length: 120 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, index)) })),
    );
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it("share idempotency records and rate limits", async () => {
    const env = { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: "8" };
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      const post = (baseUrl: string) =>
        fetch(`${baseUrl}/api/public/buyer/v1/suppliers/${buyer.supplierId}/users`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-api-key": buyer.apiKey,
            "idempotency-key": "one",
          },
          body: JSON.stringify({
            first_name: "Ada",
            last_name: "Lovelace",
            contact_email: "ada@example.com",
          }),
        });
      // The eight requests below are counted in one window.
      await withinOneWindow();
      const first = await post(a.baseUrl);
      const replay = await post(b.baseUrl);
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(await replay.json()).toEqual(await first.json());
      expect(
        await database.prisma.supplierUser.count({ where: { contactEmailKey: "ada@example.com" } }),
      ).toBe(1);

      // Two requests spent above; six more fill the window of eight across both processes.
      const statuses: number[] = [];
      for (const baseUrl of [a.baseUrl, b.baseUrl, a.baseUrl, b.baseUrl, a.baseUrl, b.baseUrl, a.baseUrl]) {
        const response = await fetch(`${baseUrl}/api/public/buyer/v1/orders?limit=1`, {
          headers: { "x-api-key": buyer.apiKey },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    } finally {
      await Promise.all([stopServerProcess(a), stopServerProcess(b)]);
    }
  });

  it("on SIGTERM finishes every accepted request, refuses new ones, and exits 0", async () => {
    const server = await startServerProcess({ DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: "100000" });
    const url = `${server.baseUrl}/api/public/buyer/v1/orders?limit=100`;
    // A load generator holds its connections open; open 40 the server has
    // accepted (a connection still in the kernel's backlog at SIGTERM is a
    // new one, and is refused).
    const agent = new Agent({ keepAlive: true, maxSockets: 40 });
    await Promise.all(Array.from({ length: 40 }, () => httpGet(`${server.baseUrl}/healthz`, { agent })));
    const inFlight = Array.from({ length: 40 }, () =>
      httpGet(url, { agent, headers: { "x-api-key": buyer.apiKey } }).then(
        (response) => ({ status: response.status, count: (JSON.parse(response.body) as unknown[]).length }),
        (error: Error) => ({ status: 0, count: 0, error: error.message }),
      ),
    );
    // Let the requests reach the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.child.kill("SIGTERM");
    const results = await Promise.all(inFlight);
    expect(
      results.filter((result) => result.status !== 200 || result.count !== 100),
      server.output(),
    ).toEqual([]);
    expect(await server.exited).toBe(0);
    await expect(fetch(url, { headers: { "x-api-key": buyer.apiKey } })).rejects.toThrow();
    // Log lines are written off the event loop: every request's line and the last line still reach stdout.
    const lines = server
      .output()
      .split("\n")
      .flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as { msg: string; path?: string }] : []));
    expect(lines.filter((line) => line.msg === "request" && line.path?.endsWith("/orders")).length).toBe(40);
    expect(lines.at(-1)?.msg).toBe("stopped");
  });

  it("on SIGTERM under keep-alive load resets no connection: each request completes or is refused at connect", {
    timeout: 240_000,
  }, async () => {
    // A reset is a race, so the shutdown is run several times.
    for (let round = 1; round <= 3; round += 1) {
      const server = await startServerProcess({
        DATABASE_URL: database.url,
        RATE_LIMIT_PER_MINUTE: "1000000",
      });
      const url = `${server.baseUrl}/api/public/buyer/v1/orders?limit=1`;
      const agent = new Agent({ keepAlive: true, maxSockets: 30 });
      let completed = 0;
      let refused = 0;
      let signalledAt = 0;
      const failures: string[] = [];
      // Each client sends request after request until the server refuses its connection.
      const client = async () => {
        for (;;) {
          try {
            const response = await httpGet(url, { agent, headers: { "x-api-key": buyer.apiKey } });
            if (response.status === 200 && (JSON.parse(response.body) as unknown[]).length === 1)
              completed += 1;
            else failures.push(`status ${response.status}`);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
            // A new connection that meets the closing listener is refused at connect, with
            // ECONNREFUSED, or ECONNRESET when the kernel had queued it; no request was taken.
            // A reset of a kept-alive connection would be a request lost.
            const reused = (error as { reusedSocket?: boolean }).reusedSocket === true;
            if (code === "ECONNREFUSED" || (code === "ECONNRESET" && !reused)) refused += 1;
            else
              failures.push(
                `round ${round}: ${code}${reused ? " on a kept-alive connection" : ""} ${Date.now() - signalledAt} ms after SIGTERM`,
              );
            return;
          }
        }
      };
      const clients = Array.from({ length: 30 }, () => client());
      // Signal once every client holds a connection it reuses, as a load generator's would.
      while (completed < 90) await new Promise((resolve) => setTimeout(resolve, 20));
      signalledAt = Date.now();
      server.child.kill("SIGTERM");
      await Promise.all(clients);
      agent.destroy();
      expect(failures, server.output()).toEqual([]);
      expect(refused).toBe(30);
      expect(await server.exited).toBe(0);
    }
  });

  it("leaves nothing behind when an import is killed mid-transaction", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "bpa-kill-"));
    const file = path.join(folder, "import.json");
    const generator = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/generate-import-file.ts", "--orders", "30000", "--out", file],
      { cwd: projectRoot(), stdio: "ignore" },
    );
    expect(await new Promise((resolve) => generator.once("exit", resolve))).toBe(0);
    const ordersBefore = await database.prisma.order.count();

    const importer = spawn(process.execPath, [CLI_ENTRY, "import", file], {
      cwd: projectRoot(),
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => importer.once("exit", resolve));
    // Kill it once it is writing inside its transaction.
    const connection = await database.connect();
    try {
      for (;;) {
        const [writing] = await connection.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND state IN ('active', 'idle in transaction') AND query ILIKE '%insert into%'`,
        );
        if ((writing?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await connection.release();
    }
    importer.kill("SIGKILL");
    await exited;
    writeFileSync(file, "");

    expect(await database.prisma.order.count()).toBe(ordersBefore);
    expect(await database.prisma.buyer.count({ where: { name: { startsWith: "Load Test Buyer" } } })).toBe(0);
  });
});
