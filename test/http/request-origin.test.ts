// The origin the API's links name, and the client address rate limits count:
// the configured public origin, or what a trusted proxy forwarded; never what
// the Host header or an untrusted client claims.
import { describe, expect, it } from "vitest";
import { createRequestOrigin } from "../../src/http/request-origin.js";

const PUBLIC = "https://api.example.com";
const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("links", () => {
  it("name the configured origin, whatever Host the request came with, keeping its path and query", () => {
    const origin = createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: false });
    const url = origin.publicUrl(
      request("http://internal:4000/api/orders?cursor=abc", {
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "https",
      }),
    );
    expect(url.toString()).toBe("https://api.example.com/api/orders?cursor=abc");
  });

  it("keep a path that looks like an origin a path", () => {
    const origin = createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: false });
    expect(origin.publicUrl(request("http://internal//evil.example/x")).origin).toBe(PUBLIC);
  });

  it("behind a trusted proxy, name the origin it forwarded (its last entry)", () => {
    const origin = createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: true });
    const url = origin.publicUrl(
      request("http://internal/api", {
        "x-forwarded-proto": "http, https",
        "x-forwarded-host": "a.example, shop.example:8443",
      }),
    );
    expect(url.toString()).toBe("https://shop.example:8443/api");
  });

  it("fall back to the configured origin when the forwarded one is not a bare host", () => {
    const origin = createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: true });
    for (const headers of <Record<string, string>[]>[
      { "x-forwarded-proto": "ftp", "x-forwarded-host": "shop.example" },
      { "x-forwarded-proto": "https", "x-forwarded-host": "shop.example/path" },
      { "x-forwarded-proto": "https", "x-forwarded-host": "user@shop.example" },
      { "x-forwarded-proto": "https" },
    ]) {
      expect(origin.publicUrl(request("http://internal/api", headers)).origin, JSON.stringify(headers)).toBe(
        PUBLIC,
      );
    }
  });
});

describe("the client address", () => {
  it("is the socket's peer unless a proxy is trusted, then the address it added last", () => {
    const forwarded = request("http://internal/", { "x-forwarded-for": "203.0.113.9, 198.51.100.7" });
    expect(
      createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: false }).clientAddress(forwarded, "10.0.0.2"),
    ).toBe("10.0.0.2");
    const trusted = createRequestOrigin({ publicBaseUrl: PUBLIC, trustProxy: true });
    expect(trusted.clientAddress(forwarded, "10.0.0.2")).toBe("198.51.100.7");
    expect(trusted.clientAddress(request("http://internal/"), "10.0.0.2")).toBe("10.0.0.2");
    expect(trusted.clientAddress(request("http://internal/"), undefined)).toBeNull();
  });
});
