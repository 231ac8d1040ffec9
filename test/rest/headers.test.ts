// decisions.md §2 and §6: X-Request-Id on every response, RateLimit-* on
// every response to a request with a valid key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { UUID } from "./helpers.js";

describe("REST v1 response headers", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Headers");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-01-01") }]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const requests = (): [
    string,
    string,
    string,
    { key?: string | null; body?: unknown; rawBody?: string },
  ][] => [
    ["200 list", "GET", "/orders", { key: buyer.apiKey }],
    [
      "201 create",
      "POST",
      "/buyer_products",
      {
        key: buyer.apiKey,
        body: { raw_material_name: "Header Product", measurement_unit: "kg", product_type: "Other" },
      },
    ],
    ["200 update", "PATCH", `/orders/${orderId}`, { key: buyer.apiKey, body: {} }],
    ["400", "POST", "/taggings", { key: buyer.apiKey, rawBody: "[" }],
    ["401", "GET", "/orders", { key: null }],
    ["404 path", "GET", "/nope", { key: buyer.apiKey }],
    ["404 record", "PATCH", "/orders/c0ffee00-0000-4000-8000-000000000000", { key: buyer.apiKey, body: {} }],
    ["405", "DELETE", "/orders", { key: buyer.apiKey }],
    ["422", "GET", "/orders?limit=0", { key: buyer.apiKey }],
    ["health", "GET", "http://localhost/healthz", {}],
  ];

  it("every response carries a new UUID X-Request-Id when none was sent, a different one each time", async () => {
    const seen = new Set<string>();
    for (const [name, method, path, options] of requests()) {
      const response = await callApi(harness.app, method, path, options);
      const requestId = response.headers.get("x-request-id");
      expect(requestId, name).toMatch(UUID);
      seen.add(requestId ?? "");
      if (response.headers.get("content-type") === "application/problem+json") {
        expect(response.body, name).toMatchObject({ request_id: requestId });
      }
    }
    expect(seen.size).toBe(requests().length);
  });

  it.each(["abc-123", "req_01J9Z.x:y", "A".repeat(128)])(
    "echoes the sane X-Request-Id %s",
    async (incoming) => {
      for (const [name, method, path, options] of requests()) {
        const response = await callApi(harness.app, method, path, {
          ...options,
          headers: { "x-request-id": incoming },
        });
        expect(response.headers.get("x-request-id"), name).toBe(incoming);
        if (response.status >= 400) expect(response.body, name).toMatchObject({ request_id: incoming });
      }
    },
  );

  it.each([
    ["too long", "A".repeat(129)],
    ["with spaces", "abc def"],
    ["with a newline escape attempt", "abc%0d%0aSet-Cookie:x"],
    ["with quotes and angle brackets", '<script>"x"</script>'],
    ["with non-ASCII", "requête"],
  ])("replaces an X-Request-Id %s by a new UUID", async (_name, incoming) => {
    const response = await harness.app.fetch("http://localhost/api/public/buyer/v1/orders?limit=0", {
      headers: { "x-api-key": buyer.apiKey, "x-request-id": incoming },
    });
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(UUID);
    expect(((await response.json()) as { request_id: string }).request_id).toBe(requestId);
  });

  it("sends RateLimit-Limit, -Remaining and -Reset on every response to a valid key", async () => {
    for (const [name, method, path, options] of requests()) {
      if (!options.key) continue;
      const response = await callApi(harness.app, method, path, options);
      expect(response.headers.get("ratelimit-limit"), name).toBe("100000");
      const remaining = Number(response.headers.get("ratelimit-remaining"));
      expect(Number.isInteger(remaining), name).toBe(true);
      expect(remaining, name).toBeGreaterThanOrEqual(0);
      expect(remaining, name).toBeLessThan(100_000);
      const reset = Number(response.headers.get("ratelimit-reset"));
      expect(Number.isInteger(reset), name).toBe(true);
      expect(reset, name).toBeGreaterThanOrEqual(1);
      expect(reset, name).toBeLessThanOrEqual(60);
    }
  });

  it("sends no RateLimit headers without a valid key", async () => {
    const response = await callApi(harness.app, "GET", "/orders", { key: "bpk_wrong" });
    expect(response.status).toBe(401);
    expect(response.headers.get("ratelimit-limit")).toBeNull();
    expect(response.headers.get("ratelimit-remaining")).toBeNull();
  });
});
