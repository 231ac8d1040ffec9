// Subscriptions answered as multipart or event streams carry the same
// security and no-caching headers as every JSON answer of /graphql.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL, graphql } from "./helpers.js";

const API_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
};

describe("/graphql stream responses", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Streams");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("a JSON answer carries the API headers (the reference)", async () => {
    const response = await graphql(harness.app, "{ viewer { buyer { name } } }", { key: buyer.apiKey });
    expect(Object.fromEntries(response.headers)).toMatchObject(API_HEADERS);
  });

  it.each([
    ["a query", "multipart/mixed", "{ viewer { buyer { name } } }", /^multipart\/mixed/],
    [
      "a subscription",
      "text/event-stream",
      "subscription { orderUpdated { order { orderStatus } } }",
      /^text\/event-stream/,
    ],
  ])("%s answered as %s carries them too", async (_what, accept, query, contentType) => {
    const response = await harness.app.fetch(GRAPHQL, {
      method: "POST",
      headers: { "content-type": "application/json", accept, "x-api-key": buyer.apiKey },
      body: JSON.stringify({ query }),
    });
    const reader = response.body?.getReader();
    await reader?.cancel().catch(() => {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(contentType);
    expect(Object.fromEntries(response.headers)).toMatchObject(API_HEADERS);
  });
});
