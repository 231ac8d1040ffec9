// The stages that mark every answer: its request id, the security headers, and CORS.
import { describe, expect, it } from "vitest";
import { createCors } from "../../../src/http/response-headers.js";
import { cors } from "../../../src/http/stages/cors.js";
import { requestIdHeader } from "../../../src/http/stages/request-id.js";
import { securityHeaders } from "../../../src/http/stages/security-headers.js";
import { exchangeFor, stubNext } from "./exchange.js";

describe("the request id stage", () => {
  it("names the request on whatever answer comes back", async () => {
    const response = await requestIdHeader(
      exchangeFor("/page", { headers: { "x-request-id": "abc-1" } }),
      stubNext(),
    );
    expect(response.headers.get("x-request-id")).toBe("abc-1");
  });
});

describe("the security headers stage", () => {
  it("adds the headers every answer carries, and keeps a page's own policy", async () => {
    const page = () =>
      new Response("<p>hi</p>", {
        headers: { "content-type": "text/html", "content-security-policy": "default-src 'self'" },
      });
    const response = await securityHeaders(exchangeFor("/page"), stubNext(page));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'self'");
    const json = await securityHeaders(exchangeFor("/api/other"), stubNext());
    expect(json.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the CORS stage", () => {
  const stage = cors(createCors(["https://shop.example"]));
  const preflight = (origin: string) =>
    exchangeFor("/api/other", {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST" },
    });

  it("answers an allowed origin's preflight itself, before anything else runs", async () => {
    const next = stubNext();
    const response = await stage(preflight("https://shop.example"), next);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(response.headers.get("access-control-allow-headers")).toContain("X-API-KEY");
    expect(next.calls).toHaveLength(0);
  });

  it("refuses another origin's preflight with 403", async () => {
    const next = stubNext();
    expect((await stage(preflight("https://elsewhere.example"), next)).status).toBe(403);
    expect(next.calls).toHaveLength(0);
  });

  it("names the allowed origin on an ordinary answer, and nothing for another origin", async () => {
    const allowed = await stage(
      exchangeFor("/api/other", { headers: { origin: "https://shop.example" } }),
      stubNext(),
    );
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    expect(allowed.headers.get("vary")).toBe("Origin");
    const other = await stage(
      exchangeFor("/api/other", { headers: { origin: "https://x.example" } }),
      stubNext(),
    );
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});
