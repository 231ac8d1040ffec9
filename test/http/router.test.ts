// The one router: every path is matched once, by segments, and its template is
// what metrics, logs and spans say; a path no template has gets none.
import { describe, expect, it } from "vitest";
import { createRouter } from "../../src/http/router.js";

const router = createRouter(
  [
    { template: "/", target: "home" },
    { template: "/docs", target: "docs" },
    { template: "/docs/", target: "docs slash" },
    { template: "/orders", target: "orders" },
    { template: "/orders/{id}", target: "order" },
    { template: "/orders/latest", target: "latest order" },
    { template: "/events/{id}/redeliver", target: "redeliver" },
    { template: "/a/{first}/b/{second}", target: "two" },
  ],
  (pathname) => (pathname.startsWith("/orders/") ? "orders fallback" : "nowhere"),
);

describe("the router", () => {
  it("matches fixed paths exactly, a trailing slash being another path", () => {
    expect(router.match("/")).toMatchObject({ template: "/", target: "home", params: [] });
    expect(router.match("/docs").target).toBe("docs");
    expect(router.match("/docs/").target).toBe("docs slash");
    expect(router.match("/orders/").target).toBe("orders fallback");
    expect(router.match("/orders/").template).toBeNull();
  });

  it("hands over each parameter as sent, in the template's order", () => {
    expect(router.match("/orders/4f9e%2D1")).toEqual({
      template: "/orders/{id}",
      target: "order",
      params: ["4f9e%2D1"],
    });
    expect(router.match("/events/e1/redeliver")).toEqual({
      template: "/events/{id}/redeliver",
      target: "redeliver",
      params: ["e1"],
    });
    expect(router.match("/a/1/b/2").params).toEqual(["1", "2"]);
  });

  it("prefers a fixed segment to a parameter, and a parameter never matches an empty segment", () => {
    expect(router.match("/orders/latest").target).toBe("latest order");
    expect(router.match("/orders//").template).toBeNull();
    expect(router.match("/a//b/2").template).toBeNull();
  });

  it("leaves a path no template has to the fallback, without a template or parameters", () => {
    for (const path of ["/nope", "/orders/1/2", "/events/e1", "", "relative"]) {
      const match = router.match(path);
      expect(match.template).toBeNull();
      expect(match.params).toEqual([]);
    }
    expect(router.match("/nope").target).toBe("nowhere");
    expect(router.match("/orders/1/2").target).toBe("orders fallback");
  });

  it("refuses at startup two templates for the same paths", () => {
    expect(() =>
      createRouter(
        [
          { template: "/orders/{id}", target: 1 },
          { template: "/orders/{order_id}", target: 2 },
        ],
        () => 0,
      ),
    ).toThrow("route /orders/{order_id}: its paths are already /orders/{id}'s");
    expect(() => createRouter([{ template: "orders", target: 1 }], () => 0)).toThrow(/starts with \//);
  });
});
