// With WEB_CONCURRENCY=2, expensive work takes turns across the host: the
// primary keeps them (src/server/cluster-turns.ts), so a key's place taken on
// one worker is taken on the other too, and a worker that dies gives its
// places back. A socket that reads nothing holds an answer, and its key's
// place, for as long as the test needs; nothing here waits on a clock.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childrenOf } from "../../bench/proc.js";
import { eventually } from "../support/eventually.js";
import { connectionsHeldBy, establishedOn } from "../support/proc.js";
import type { SeededBuyer } from "../support/seed.js";
import {
  httpGet,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process.js";
import { ORDER_COUNT, REFERENCE_LENGTH, seedSlowReaders } from "../support/slow-reader-data.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

const ORDERS = "/api/public/buyer/v1/orders";
/** New connections the kernel spreads over the two workers: all landing on one is a chance of 1 in 512. */
const ATTEMPTS = 10;

/** A client that sends one request and reads nothing until told to. */
function slowReader(port: number, path: string, apiKey: string) {
  const socket: Socket = connect(port, "127.0.0.1");
  socket.pause();
  socket.on("error", () => {});
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${apiKey}\r\nConnection: close\r\n\r\n`,
  );
  return {
    /** Starts reading; resolves with the bytes read when the connection ends, however it ends. */
    readToEnd(): Promise<number> {
      let bytes = 0;
      socket.on("data", (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      const ended = new Promise<number>((resolve) => socket.once("close", () => resolve(bytes)));
      socket.resume();
      return ended;
    },
  };
}

describe.runIf(onPostgres && process.platform === "linux")(
  "expensive work with WEB_CONCURRENCY=2",
  { timeout: 180_000 },
  () => {
    let database: TestDatabase;
    let server: ServerProcess;
    let buyer: SeededBuyer;
    let other: SeededBuyer;

    beforeAll(async () => {
      database = await createTestDatabase();
      ({ buyer, other } = await seedSlowReaders(database));
      server = await startServerProcess({
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: "2",
        MAX_CONCURRENT_EXPENSIVE_PER_KEY: "1",
        MAX_WAITING_EXPENSIVE_PER_KEY: "0",
        RESPONSE_WRITE_TIMEOUT_MS: "600000",
      });
      await eventually(
        async () => ((server.output().match(/listening on/g)?.length ?? 0) === 2 ? true : null),
        60_000,
      );
    }, 150_000);
    afterAll(async () => {
      await stopServerProcess(server);
      await database?.close();
    });

    const metric = async (name: string) => {
      const { body } = await httpGet(`${server.baseUrl}/metrics`);
      return Number(new RegExp(`^${name} (\\S+)`, "m").exec(body)?.[1] ?? Number.NaN);
    };
    const statusOf = async (path: string, apiKey: string) =>
      (await httpGet(`${server.baseUrl}${path}`, { headers: { "x-api-key": apiKey } })).status;

    it("refuses the key's expensive reads on either worker while its answer is unread, and frees its place when that worker dies", async () => {
      const port = Number(new URL(server.baseUrl).port);
      const reader = slowReader(port, `${ORDERS}?limit=500`, buyer.apiKey);
      // The answer is made and waits for its reader: the key's one place on the host is held.
      await eventually(async () => ((await metric("http_sending_bytes")) > 4_000_000 ? true : null), 60_000);
      expect(await metric("expensive_work_running")).toBe(1);

      const statuses: number[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        statuses.push(await statusOf(`${ORDERS}?limit=${499 - attempt}`, buyer.apiKey));
      }
      expect(statuses).toEqual(Array(ATTEMPTS).fill(429));
      // Another buyer's expensive read is served meanwhile; so is the key's small page.
      expect(await statusOf(`${ORDERS}?limit=500`, other.apiKey)).toBe(200);
      expect(await statusOf(`${ORDERS}?limit=5`, buyer.apiKey)).toBe(200);

      // The worker holding the unread answer dies; the primary gives its place back.
      const inodes = establishedOn(port);
      const holders = childrenOf(server.child.pid ?? 0).filter((pid) => connectionsHeldBy(pid, inodes) > 0);
      expect(holders).toHaveLength(1);
      process.kill(holders[0] ?? 0, "SIGKILL");
      expect(await reader.readToEnd()).toBeLessThan(ORDER_COUNT * REFERENCE_LENGTH);
      // A connection the kernel handed the killed worker before it died is reset: ask again.
      await eventually(
        async () =>
          (await statusOf(`${ORDERS}?limit=450`, buyer.apiKey).catch(() => null)) === 200 ? true : null,
        30_000,
      );
    });
  },
);
