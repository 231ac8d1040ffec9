// Cached answers over real sockets while a small cache turns over all the time: an evicted entry's
// bytes are freed once no answer is sending them (src/http/response-cache.ts), and no client ever
// gets a body spoiled by that. A server process needs a database it can share: PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

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
