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

/**
 * A server process with a cache of `cacheBytes` over one buyer's `count` orders, each carrying a
 * purchase order reference of `referenceLength` characters; stopped and dropped after the suite.
 */
function serverWithOrders(name: string, count: number, referenceLength: number, cacheBytes: number) {
  const running: { database?: TestDatabase; buyer?: SeededBuyer; server?: ServerProcess } = {};
  beforeAll(async () => {
    running.database = await createTestDatabase();
    running.buyer = await seedBuyer(running.database, name);
    await seedOrders(
      running.database,
      running.buyer,
      Array.from({ length: count }, (_, index) => ({
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
        purchaseOrderReference: `PO-${"x".repeat(referenceLength)}-${index}`,
      })),
    );
    running.server = await startServerProcess({
      DATABASE_URL: running.database.url,
      RESPONSE_CACHE_MAX_BYTES: String(cacheBytes),
    });
  }, 60_000);
  afterAll(async () => {
    running.server?.child.kill("SIGTERM");
    await running.server?.exited;
    await running.database?.close();
  });
  const baseUrl = () => running.server?.baseUrl ?? "";
  const pagePath = (limit: number) => `/api/public/buyer/v1/orders?limit=${limit}`;
  return {
    baseUrl,
    apiKey: () => running.buyer?.apiKey ?? "",
    pagePath,
    async page(limit: number): Promise<string> {
      // Plain, as the raw requests below ask: a page in brotli would take a fraction of the cache.
      const response = await fetch(`${baseUrl()}${pagePath(limit)}`, {
        headers: { "x-api-key": running.buyer?.apiKey ?? "", "accept-encoding": "identity" },
      });
      expect(response.status).toBe(200);
      return response.text();
    },
    async counter(name: "hits" | "misses"): Promise<number> {
      const metrics = await (await fetch(`${baseUrl()}/metrics`)).text();
      return Number(new RegExp(`^http_response_cache_${name}_total (\\d+)`, "m").exec(metrics)?.[1] ?? 0);
    },
  };
}

const PAGE_SIZES = Array.from({ length: 40 }, (_, index) => index + 1);

describe.runIf(onPostgres)("cached answers on a cache that keeps evicting", { timeout: 120_000 }, () => {
  // About a tenth of the 40 pages fit in 64 KiB: nearly every request evicts another page.
  const { page, counter } = serverWithOrders("Cache Churn", 40, 200, 65_536);

  it("sends every page whole, whichever answers were evicted while others were being sent", async () => {
    const expected = new Map<number, string>();
    for (const limit of PAGE_SIZES) expected.set(limit, await page(limit));

    for (let round = 0; round < 5; round += 1) {
      const sizes = [...PAGE_SIZES, ...PAGE_SIZES].sort(() => Math.random() - 0.5);
      const bodies = await Promise.all(sizes.map(async (limit) => ({ limit, body: await page(limit) })));
      for (const { limit, body } of bodies) expect(body).toBe(expected.get(limit));
    }
    expect(await counter("hits")).toBeGreaterThan(0);
  });
});

describe.runIf(onPostgres)("a cached answer a slow client is still reading", { timeout: 120_000 }, () => {
  // Pages of up to 500 orders of about 10 KB, 5 MB: more than the socket buffers take while nobody reads.
  const { baseUrl, apiKey, pagePath, page, counter } = serverWithOrders(
    "Slow Reader",
    500,
    10_000,
    64 * 1024 * 1024,
  );

  it("gets the page whole although its entry was evicted while the answer waited to be read", async () => {
    const expected = await page(500);
    const { hostname, port } = new URL(baseUrl());
    const socket = connect(Number(port), hostname);
    socket.pause();
    socket.write(
      `GET ${pagePath(500)} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Api-Key: ${apiKey()}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Twenty other big pages push the unread one out of the 64 MiB cache.
    for (let limit = 480; limit < 500; limit += 1) await page(limit);
    const misses = await counter("misses");
    expect(await page(500)).toBe(expected);
    expect(await counter("misses")).toBe(misses + 1);

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
