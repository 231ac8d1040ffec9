// decisions.md §2 and §6: over the key's rate limit, 429 rate_limited with
// Retry-After. The window is a wall-clock minute, so the assertions hold
// whether or not a minute boundary falls between the requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { type ApiResponse, expectProblem } from "./helpers.js";

const LIMIT = 3;

describe("rate limit of 3 requests a minute per key", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp({ rateLimitPerMinute: LIMIT });
    buyer = await seedBuyer(harness.database, "Limited");
    other = await seedBuyer(harness.database, "Unlimited");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("answers 429 with Retry-After once the key is over the limit, and creates nothing then", async () => {
    // With at most one window boundary among 2 * LIMIT + 1 requests, at least one must be refused.
    const responses: ApiResponse[] = [];
    for (let index = 0; index < 2 * LIMIT + 1; index += 1) {
      responses.push(
        await callApi(harness.app, "POST", "/buyer_products", {
          key: buyer.apiKey,
          body: { raw_material_name: `Limited ${index}`, measurement_unit: "kg", product_type: "Other" },
        }),
      );
    }
    const refused = responses.filter((response) => response.status === 429);
    const created = responses.filter((response) => response.status === 201);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(created.length + refused.length).toBe(responses.length);
    expect(created.length).toBeLessThanOrEqual(2 * LIMIT);
    expect(created.length).toBeGreaterThanOrEqual(LIMIT);
    for (const response of refused) {
      expectProblem(response, 429, "rate_limited");
      const retryAfter = Number(response.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(response.headers.get("ratelimit-remaining")).toBe("0");
      expect(response.headers.get("ratelimit-reset")).toBe(String(retryAfter));
    }
    for (const response of created) {
      expect(response.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(Number(response.headers.get("ratelimit-remaining"))).toBeLessThan(LIMIT);
    }
    const stored = await harness.database.prisma.buyerProduct.count({
      where: { buyerId: buyer.buyerId, rawMaterialName: { startsWith: "Limited " } },
    });
    expect(stored).toBe(created.length);
  });

  it.each([
    ["POST", "/suppliers/c0ffee00-0000-4000-8000-000000000000/users"],
    ["POST", "/taggings"],
    ["POST", "/buyer_products"],
    ["GET", "/orders"],
    ["PATCH", "/orders/c0ffee00-0000-4000-8000-000000000000"],
    ["GET", "/buyer_product_approvals"],
  ])(
    "%s %s answers 429 before looking at the request once the key is over the limit",
    async (method, path) => {
      const fresh = await seedBuyer(harness.database, `Limited ${method} ${path}`);
      const statuses: number[] = [];
      for (let index = 0; index < 2 * LIMIT + 1; index += 1) {
        const response = await callApi(harness.app, method, path, { key: fresh.apiKey, body: {} });
        statuses.push(response.status);
        if (response.status === 429) expectProblem(response, 429, "rate_limited");
      }
      expect(statuses).toContain(429);
      expect(statuses.filter((status) => status !== 429).length).toBeGreaterThanOrEqual(LIMIT);
    },
  );

  it("counts remaining requests down within a window", async () => {
    const fresh = await seedBuyer(harness.database, "Countdown");
    const remaining: number[] = [];
    for (let index = 0; index < LIMIT; index += 1) {
      const response = await callApi(harness.app, "GET", "/orders", { key: fresh.apiKey });
      remaining.push(Number(response.headers.get("ratelimit-remaining")));
    }
    // Strictly falling, unless a new window started in between (then it jumps back up once).
    const rises = remaining.slice(1).filter((value, index) => value >= (remaining[index] ?? 0)).length;
    expect(rises).toBeLessThanOrEqual(1);
    expect(Math.min(...remaining)).toBeLessThanOrEqual(LIMIT - 2);
  });

  it("limits each key on its own: another buyer's key is still served", async () => {
    const response = await callApi(harness.app, "GET", "/orders", { key: other.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-limit")).toBe(String(LIMIT));
  });
});
