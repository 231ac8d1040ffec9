// The exchange every stage reads: made once per request, with the router's one
// match; and the last step, which hands the request to the matched endpoint.
import { describe, expect, it } from "vitest";
import { dispatch } from "../../../src/http/stages/dispatch.js";
import { exchangeFor, openPage, PUBLIC_ORIGIN, unversionedApi, versionedThing } from "./exchange.js";

describe("routing", () => {
  it("matches the path once and says whether the request is a versioned read", () => {
    const read = exchangeFor("/api/things/t1?x=1");
    expect(read.route.template).toBe("/api/things/{id}");
    expect(read.route.params).toEqual(["t1"]);
    expect(read.versionedRead).toBe(true);
    expect(exchangeFor("/api/things/t1", { method: "HEAD" }).versionedRead).toBe(true);
    expect(exchangeFor("/api/things/t1", { method: "PATCH" }).versionedRead).toBe(false);
    expect(exchangeFor("/api/other").versionedRead).toBe(false);
  });

  it("puts the request under the public origin, whatever the Host", () => {
    const { url } = exchangeFor("/api/things/t1?x=1", { headers: { host: "evil.example" } });
    expect(url.href).toBe(`${PUBLIC_ORIGIN}/api/things/t1?x=1`);
  });

  it("keeps a sane X-Request-Id and replaces any other", () => {
    expect(exchangeFor("/page", { headers: { "x-request-id": "trace-42" } }).requestId).toBe("trace-42");
    const replaced = exchangeFor("/page", { headers: { "x-request-id": "bad id with spaces" } }).requestId;
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("takes the client's address from the server, or has none", () => {
    expect(exchangeFor("/page", {}, { clientAddress: "203.0.113.9" }).clientAddress).toBe("203.0.113.9");
    expect(
      exchangeFor("/page", {}, { req: { socket: { remoteAddress: "198.51.100.1" } } }).clientAddress,
    ).toBe("198.51.100.1");
    expect(exchangeFor("/page").clientAddress).toBeNull();
  });

  it("dispatches to the matched endpoint, and a path no route has to the 404 that links the reference", async () => {
    const before = openPage.handled.length;
    expect((await dispatch(exchangeFor("/page"))).status).toBe(200);
    expect(openPage.handled.length).toBe(before + 1);
    expect(versionedThing.handled.length + unversionedApi.handled.length).toBe(0);

    const missing = await dispatch(exchangeFor("/nowhere", { headers: { "x-request-id": "r-404" } }));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("link")).toBe('</docs>; rel="help"');
    expect(await missing.json()).toMatchObject({
      code: "not_found",
      detail: "No such resource; the API reference is at /docs",
      request_id: "r-404",
    });
  });
});
