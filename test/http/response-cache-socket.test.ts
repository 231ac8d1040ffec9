// Cached answers over real sockets while a small cache turns over all the time: an evicted entry's
// bytes are freed once no answer is sending them (src/http/response-cache.ts), and no client ever
// gets a body spoiled by that. A server process needs a database it can share: PostgreSQL only.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

/** The body of a whole HTTP/1.1 response, with or without chunked transfer coding. */
function bodyOf(raw: Buffer): string {
  const headerEnd = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, headerEnd).toString("latin1").toLowerCase();
  let rest = raw.subarray(headerEnd + 4);
  if (!head.includes("transfer-encoding: chunked")) return rest.toString("utf8");
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts).toString("utf8");
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}

const PAGE_SIZES = Array.from({ length: 40 }, (_, index) => index + 1);

describe.runIf(onPostgres)("cached answers on a cache that keeps evicting", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Cache Churn");
    await seedOrders(
      database,
      buyer,
      Array.from({ length: 40 }, (_, index) => ({
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, index)),
        purchaseOrderReference: `PO-${"x".repeat(200)}-${index}`,
      })),
    );
    // About a tenth of the 40 pages fit: nearly every request evicts another page.
    server = await startServerProcess({ DATABASE_URL: database.url, RESPONSE_CACHE_MAX_BYTES: "65536" });
  }, 60_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await database?.close();
  });

  const page = async (limit: number) => {
    const response = await fetch(`${server.baseUrl}/api/public/buyer/v1/orders?limit=${limit}`, {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(response.status).toBe(200);
    return response.text();
  };

  it("sends every page whole, whichever answers were evicted while others were being sent", async () => {
    const expected = new Map<number, string>();
    for (const limit of PAGE_SIZES) expected.set(limit, await page(limit));

    for (let round = 0; round < 5; round += 1) {
      const sizes = [...PAGE_SIZES, ...PAGE_SIZES].sort(() => Math.random() - 0.5);
      const bodies = await Promise.all(sizes.map(async (limit) => ({ limit, body: await page(limit) })));
      for (const { limit, body } of bodies) expect(body).toBe(expected.get(limit));
    }
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const hits = Number(/^http_response_cache_hits_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    expect(hits).toBeGreaterThan(0);
  });
});

describe.runIf(onPostgres)("a cached answer a slow client is still reading", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Slow Reader");
    // A page of 500 orders of about 11 KB, 5.5 MB: more than the socket buffers take while nobody reads.
    await seedOrders(
      database,
      buyer,
      Array.from({ length: 500 }, (_, index) => ({
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
        purchaseOrderReference: `PO-${"y".repeat(10_000)}-${index}`,
      })),
    );
    server = await startServerProcess({
      DATABASE_URL: database.url,
      RESPONSE_CACHE_MAX_BYTES: String(64 * 1024 * 1024),
    });
  }, 60_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await database?.close();
  });

  const path = (limit: number) => `/api/public/buyer/v1/orders?limit=${limit}`;
  const page = async (limit: number) =>
    (await fetch(`${server.baseUrl}${path(limit)}`, { headers: { "x-api-key": buyer.apiKey } })).text();
  const misses = async () => {
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    return Number(/^http_response_cache_misses_total (\d+)/m.exec(metrics)?.[1]);
  };

  it("gets the page whole although its entry was evicted while the answer waited to be read", async () => {
    const expected = await page(500);
    const { hostname, port } = new URL(server.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.pause();
    socket.write(
      `GET ${path(500)} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Api-Key: ${buyer.apiKey}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Twenty other big pages push the unread one out of the 64 MiB cache.
    for (let limit = 480; limit < 500; limit += 1) await page(limit);
    const before = await misses();
    expect(await page(500)).toBe(expected);
    expect(await misses()).toBe(before + 1);

    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => socket.once("end", resolve));
    socket.resume();
    await ended;
    const raw = Buffer.concat(chunks);
    expect(raw.subarray(0, 12).toString()).toBe("HTTP/1.1 200");
    expect(bodyOf(raw)).toBe(expected);
  });
});
