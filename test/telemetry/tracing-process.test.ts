import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { projectRoot } from "../../src/project-root.js";
import { SERVER_ENTRY } from "../support/compiled.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { eventually } from "../support/eventually.js";
import { migratedPgliteUrl } from "../support/pglite-snapshot.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.js";

// `npm start` as operators run it: the OTEL_* variables of the environment
// decide, the default OTLP protocol (protobuf) is used, and the process exits
// cleanly. The server runs as a child process; PGlite belongs to one process,
// so the database is seeded here, closed, and then handed to the server.
let databaseUrl: string;
let postgres: TestDatabase | undefined;
let buyer: SeededBuyer;

beforeAll(async () => {
  const onPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");
  if (onPostgres) {
    postgres = await createTestDatabase();
    databaseUrl = postgres.url;
    buyer = await seedBuyer(postgres);
    await seedOrders(postgres, buyer, [{ createdAt: new Date("2026-01-01T00:00:00Z") }]);
    return;
  }
  databaseUrl = migratedPgliteUrl(path.join(mkdtempSync(path.join(tmpdir(), "bpa-tracing-")), "pglite"));
  const database = await openDatabase(parseDatabaseUrl(databaseUrl), CONFIGURED_POOL);
  await migrateDatabase(database);
  buyer = await seedBuyer(database);
  await seedOrders(database, buyer, [{ createdAt: new Date("2026-01-01T00:00:00Z") }]);
  await database.close();
}, 120_000);

afterAll(async () => {
  await postgres?.close();
});

async function stop(server: ServerProcess): Promise<number | null> {
  server.child.kill("SIGTERM");
  const killer = setTimeout(() => server.child.kill("SIGKILL"), 20_000);
  const code = await server.exited;
  clearTimeout(killer);
  return code;
}

function listOrders(server: ServerProcess, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/api/public/buyer/v1/orders`, {
    headers: { "x-api-key": buyer.apiKey, ...headers },
  });
}

describe("tracing in a server process started from the environment", () => {
  it("exports spans over OTLP/HTTP protobuf, continuing the caller's trace, and logs the trace id", async () => {
    const receiver = await startOtlpReceiver();
    const server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    try {
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
      const response = await listOrders(server, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
      expect(response.status).toBe(200);
      const http = await receiver.waitForSpan(
        (span) => span.traceId === traceId && span.name === "GET /api/public/buyer/v1/orders",
      );
      expect(http).toMatchObject({
        parentSpanId: "00f067aa0ba902b7",
        kind: 2,
        serviceName: "buyer-public-api",
      });
      const execute = await receiver.waitForSpan(
        (span) => span.traceId === traceId && span.name === "query.ListOrders",
      );
      expect(execute.parentSpanId).toBe(http.spanId);
      // The page's one statement (a planned read), under the execute span.
      const read = await receiver.waitForSpan(
        (span) =>
          span.traceId === traceId &&
          /FROM "(public"\.")?orders"/.test(String(span.attributes["db.query.text"])),
      );
      const parentOf = (span: ReceivedSpan) =>
        receiver.spans.find((each) => each.spanId === span.parentSpanId);
      let ancestor = parentOf(read);
      while (ancestor && ancestor.spanId !== execute.spanId) ancestor = parentOf(ancestor);
      expect(ancestor, "the orders read is under the execute span").toBeDefined();
      expect(receiver.contentTypes.every((type) => type === "application/x-protobuf")).toBe(true);
      const requestId = String(response.headers.get("x-request-id"));
      // The log line may reach the pipe after the answer does: wait for it.
      const logLine = await vi.waitFor(
        () => {
          const line = server
            .output()
            .split("\n")
            .find((each) => each.includes('"msg":"request"') && each.includes(requestId));
          if (!line) throw new Error(`no request log line for ${requestId} yet`);
          return line;
        },
        { timeout: 60_000, interval: 50 },
      );
      expect(JSON.parse(logLine)).toMatchObject({ traceId, status: 200 });
    } finally {
      expect(await stop(server)).toBe(0);
      await receiver.close();
    }
  }, 120_000);

  it("keeps answering quickly when the collector never answers, and counts the spans it drops", async () => {
    // A collector that accepts connections and never replies: the worst kind of unreachable.
    const held: Socket[] = [];
    const blackHole: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    const { port } = blackHole.address() as { port: number };
    const exportTimeoutMs = 1_000;
    const server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: String(exportTimeoutMs),
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_BSP_MAX_QUEUE_SIZE: "16",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "8",
    });
    try {
      const durations: number[] = [];
      for (let index = 0; index < 30; index += 1) {
        const started = performance.now();
        const response = await listOrders(server);
        await response.arrayBuffer();
        durations.push(performance.now() - started);
        expect(response.status).toBe(200);
      }
      durations.sort((a, b) => a - b);
      const median = durations[Math.floor(durations.length / 2)] ?? Infinity;
      // Waiting on the collector would cost each request the export timeout.
      expect(median).toBeLessThan(exportTimeoutMs / 2);

      const dropped = async () => {
        const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
        const count = (reason: string) =>
          Number(
            new RegExp(`^tracing_spans_dropped_total\\{reason="${reason}"\\} (\\d+)`, "m").exec(metrics)?.[1],
          );
        return { queueFull: count("queue_full"), exportFailed: count("export_failed") };
      };
      const counts = await eventually(async () => {
        const current = await dropped();
        return current.queueFull > 0 && current.exportFailed > 0 ? current : null;
      }, 15_000);
      expect(counts.queueFull).toBeGreaterThan(0);
      expect(await stop(server)).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      for (const socket of held) socket.destroy();
      blackHole.close();
    }
  }, 120_000);

  it("stops at start with one line when an OTEL_* variable is bad", async () => {
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: projectRoot(),
      env: {
        ...process.env,
        PORT: "0",
        DATABASE_URL: "pglite:memory",
        OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toEqual([
      "config: OTEL_EXPORTER_OTLP_ENDPOINT: must be an absolute http(s) URL such as http://collector:4318",
    ]);
  }, 60_000);
});
