// Conditional and cached reads (docs/design/decisions.md §9); If-Match on PATCH is if-match.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

const CREATED_AT = new Date("2025-04-01T08:00:00.000Z");
const TAG = /^"\d+-[0-9a-f]{16}"$/;

describe("conditional requests", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;
  const get = (path: string, headers: Record<string, string> = {}, key = buyer.apiKey) =>
    callApi(harness.app, "GET", path, { key, headers });
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    callApi(harness.app, "PATCH", `/orders/${id}`, { key: buyer.apiKey, body, headers });
  const remaining = (response: { headers: Headers }) => Number(response.headers.get("ratelimit-remaining"));
  /** SQL statements a request sent, beside the rate limiter's occasional sweep and the last-used stamp. */
  async function statementsOf(request: () => Promise<unknown>): Promise<string[]> {
    harness.resetQueries();
    await request();
    return harness.queries.filter((sql) => !/DELETE FROM rate_limit_windows|last_used_at =/i.test(sql));
  }

  beforeAll(async () => {
    harness = await createTestApp({ rateLimitPerMinute: 1000 });
    buyer = await seedBuyer(harness.database, "Conditional");
    other = await seedBuyer(harness.database, "Other");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: CREATED_AT },
      { createdAt: CREATED_AT },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("tags every read strongly and lets the client keep it only while revalidating", async () => {
    const response = await get("/orders?limit=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toMatch(TAG);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("link")).toContain("cursor=");
  });

  it("answers a current If-None-Match with 304: no body, one statement, not counted", async () => {
    await withinOneWindow();
    const first = await get("/orders?limit=2");
    const etag = first.headers.get("etag") ?? "";
    let again: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(async () => {
      again = await get("/orders?limit=2", { "if-none-match": etag });
    });
    expect(again?.status).toBe(304);
    expect(again?.text).toBe("");
    expect(again?.headers.get("etag")).toBe(etag);
    expect(again?.headers.get("cache-control")).toBe("private, no-cache");
    // Only the admission statement ran: no GraphQL operation, no count.
    expect(statements).toHaveLength(1);
    expect(remaining(again ?? first)).toBe(remaining(first));
    // A list of tags, or the tag in its weak form, names it too.
    expect(
      (await get("/orders?limit=2", { "if-none-match": `"1-0000000000000000", W/${etag}` })).status,
    ).toBe(304);
  });

  it("answers 200 with a new tag once the buyer's data changed, and counts it", async () => {
    await withinOneWindow();
    const first = await get("/orders?limit=2");
    const etag = first.headers.get("etag") ?? "";
    expect((await patch(orderId, { supplier_order_reference: "SO-air" })).status).toBe(200);
    const after = await get("/orders?limit=2", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ supplier_order_reference: "SO-air" })]),
    );
    expect(remaining(after)).toBeLessThan(remaining(first));
  });

  it("keeps a tag when another buyer's data changes", async () => {
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    await seedOrders(harness.database, other, [{ createdAt: CREATED_AT }]);
    expect((await get("/orders?limit=2", { "if-none-match": etag })).status).toBe(304);
  });

  it("answers 200, counted, for another URL's tag, a foreign or malformed one", async () => {
    await withinOneWindow();
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    for (const header of [
      (await get("/orders?limit=3")).headers.get("etag") ?? "",
      (await get("/buyer_product_approvals")).headers.get("etag") ?? "",
      '"v1-abc"',
      "not a tag",
      '"unterminated',
      etag.slice(1, -1),
    ]) {
      const before = await get("/orders?limit=1");
      const response = await get("/orders?limit=2", { "if-none-match": header });
      expect(response.status, header).toBe(200);
      expect(response.headers.get("etag")).toBe(etag);
      expect(remaining(response), header).toBeLessThan(remaining(before));
    }
  });

  it("never answers 304 to another buyer holding this buyer's tag", async () => {
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    const response = await get("/orders?limit=2", { "if-none-match": etag }, other.apiKey);
    expect(response.status).toBe(200);
  });

  it("answers a repeated read from the cache with the same bytes, without running the operation", async () => {
    const first = await get("/orders?limit=2&order_status=quote_selected");
    let again: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(async () => {
      again = await get("/orders?limit=2&order_status=quote_selected");
    });
    expect(again?.status).toBe(200);
    expect(again?.text).toBe(first.text);
    expect(again?.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again?.headers.get("link")).toBe(first.headers.get("link"));
    expect(statements).toHaveLength(1);
    const metrics = await (await harness.app.fetch("http://localhost/metrics")).text();
    expect(metrics).toMatch(/^http_response_cache_hits_total [1-9]/m);
    expect(metrics).toMatch(/^http_not_modified_total [1-9]/m);
    expect(metrics).toMatch(/^http_response_cache_bytes [1-9]/m);
  });
});
