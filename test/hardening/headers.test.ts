import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

describe("response headers", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let closed: App;
  let open: App;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Headers");
    const base = loadConfig({});
    const make = (corsOrigins: string[]) =>
      createApp({
        config: { ...base, corsOrigins },
        database,
        logger: createLogger("silent"),
      });
    closed = make([]);
    open = make(["https://buyer.example.com"]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("carry the standard security headers, and let only the client keep API data, revalidating it", async () => {
    const response = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "cache-control": "private, no-cache",
    });
    const refused = await closed.fetch("http://localhost/api/public/buyer/v1/orders?limit=0", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  it("allow no browser origin by default", async () => {
    const preflight = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(403);
    const response = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://evil.example.com" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("let configured origins call the API, reading the paging and rate-limit headers", async () => {
    const preflight = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "OPTIONS",
      headers: {
        origin: "https://buyer.example.com",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "x-api-key, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/X-API-KEY/);
    const response = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://buyer.example.com" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    expect(response.headers.get("access-control-expose-headers")).toMatch(/Link.*RateLimit-Remaining/);
    const other = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://other.example.com" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("gives an answer from the response cache only its own request's CORS and rate-limit headers", async () => {
    const read = (origin: string) =>
      open.fetch("http://localhost/api/public/buyer/v1/orders?limit=3", {
        headers: { "x-api-key": buyer.apiKey, origin },
      });
    await withinOneWindow();
    const first = await read("https://buyer.example.com");
    const second = await read("https://buyer.example.com");
    expect(second.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    const other = await read("https://other.example.com");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(Number(other.headers.get("ratelimit-remaining"))).toBe(
      Number(first.headers.get("ratelimit-remaining")) - 2,
    );
  });
});
