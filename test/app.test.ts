import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./support/eventually.js";
import { type SeededBuyer, seedBuyer } from "./support/seed.js";
import { callApi, createTestApp, type TestApp } from "./support/test-app.js";

describe("service basics", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Basics");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("answers /healthz without a key", async () => {
    const response = await callApi(harness.app, "GET", "http://localhost/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });

  it("answers /readyz with 200 while the database answers", async () => {
    const response = await callApi(harness.app, "GET", "http://localhost/readyz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ready" });
  });

  it("refuses GraphQL without a valid key: HTTP 401 with code UNAUTHENTICATED", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "bpk_not_a_real_key_000000000000000000" },
      body: JSON.stringify({ query: "{ orders { edges { node { id } } } }" }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe("UNAUTHENTICATED");
  });

  it("serves GraphQL to a valid key from the same schema as REST", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({
        query: "{ buyerProductApprovals { edges { node { id: databaseId approvalStatus } } } }",
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      data: {
        buyerProductApprovals: { edges: [{ node: { id: buyer.approvalId, approvalStatus: "APPROVED" } }] },
      },
    });
  });

  it("stops accepting a key as soon as it is revoked", async () => {
    expect((await callApi(harness.app, "GET", "/orders", { key: buyer.apiKey })).status).toBe(200);
    await harness.database.prisma.apiKey.update({
      where: { id: buyer.apiKeyId },
      data: { revokedAt: new Date() },
    });
    const refused = await callApi(harness.app, "GET", "/orders", { key: buyer.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "unauthenticated" });
  });

  it("records when a key was last used", async () => {
    const other = await seedBuyer(harness.database, "Usage");
    await callApi(harness.app, "GET", "/orders", { key: other.apiKey });
    // The stamp is written beside the response, not before it.
    const lastUsedAt = await eventually(
      async () =>
        (await harness.database.prisma.apiKey.findUniqueOrThrow({ where: { id: other.apiKeyId } }))
          .lastUsedAt,
    );
    expect(lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("HTTP niceties", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Niceties");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("answers HEAD wherever GET works", async () => {
    const head = await harness.app.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "HEAD",
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toBeNull();
    expect(head.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("tells a client without a key how to authenticate", async () => {
    const response = await callApi(harness.app, "GET", "/orders");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('ApiKey realm="buyer-api", header="X-API-KEY"');
  });
});

describe("route labels", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Labels");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("counts each request under its route template in /metrics: pages, the document, the API, and unmatched", async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      harness.app.fetch(`http://localhost${path}`, { headers });
    await get("/");
    await get("/api/public/buyer/v1/openapi.json");
    await get("/docs/");
    await get(`/api/public/buyer/v1/orders/${buyer.approvalId}`, { "x-api-key": buyer.apiKey });
    await get("/api/public/buyer/v1/purchase_orders", { "x-api-key": buyer.apiKey });
    await get("/wp-login.php");
    const text = await (await get("/metrics")).text();
    const counted = text
      .split("\n")
      .filter((line) => line.startsWith("http_requests_total{"))
      .map((line) => line.replace(/ \d+$/, ""));
    expect(counted).toEqual(
      expect.arrayContaining([
        'http_requests_total{route="/",method="GET",status="200"}',
        'http_requests_total{route="/api/public/buyer/v1/openapi.json",method="GET",status="200"}',
        'http_requests_total{route="/docs/",method="GET",status="308"}',
        'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="GET",status="404"}',
        'http_requests_total{route="unmatched",method="GET",status="404"}',
      ]),
    );
    // The unmatched API path and the scanner's guess share one series.
    expect(text).toMatch(/^http_requests_total\{route="unmatched",method="GET",status="404"\} 2$/m);
  });
});
