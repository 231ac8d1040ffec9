// GET / : a page for a person who opened the service's address, linking the
// API reference, the GraphQL console (when it is on), the OpenAPI document and
// health; in the demo it shows the demo buyer's key. Nothing on it may load
// or run but its one inline style.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHomePage } from "../../src/http/home-page.js";

const ORIGIN = new URL("https://api.example.test/");
const get = (home: ReturnType<typeof createHomePage>, method = "GET") =>
  home(new Request(ORIGIN, { method }), ORIGIN, "req-home");

describe("the front page", () => {
  it("links the reference, the GraphQL console, the OpenAPI document and health, and says how to get a key", async () => {
    const response = get(
      createHomePage({ documentPath: "/api/public/buyer/v1/openapi.json", graphiql: true }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const html = await response.text();
    for (const href of ["/docs", "/graphql", "/api/public/buyer/v1/openapi.json", "/healthz", "/readyz"])
      expect(html).toContain(`href="${href}"`);
    expect(html).toContain("buyer-api keys create --buyer &lt;buyer id&gt;");
  });

  it("leaves the GraphQL console out when GraphiQL is off", async () => {
    const html = await get(createHomePage({ documentPath: "/openapi.json", graphiql: false })).text();
    expect(html).not.toContain('href="/graphql"');
  });

  it("allows its one inline style by hash, and nothing else to load or run", async () => {
    const response = get(createHomePage({ documentPath: "/openapi.json", graphiql: true }));
    const html = await response.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    expect(policy).not.toContain("script-src");
    expect(html).not.toContain("<script");
  });

  it("shows the demo's key, escaped, with a curl to try, and is never stored by a shared cache", async () => {
    const response = get(
      createHomePage({ documentPath: "/openapi.json", graphiql: true, demoApiKey: "bpk_demo<&>'\"" }),
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain("<pre>bpk_demo&lt;&amp;&gt;&#39;&quot;</pre>");
    expect(html).toContain(
      "curl -sS -H 'X-API-KEY: bpk_demo&lt;&amp;&gt;&#39;&quot;' 'https://api.example.test/api/public/buyer/v1/orders?limit=5'",
    );
    expect(html).not.toContain("bpk_demo<");
  });

  it("refuses anything but GET and HEAD with 405 naming them", async () => {
    const response = get(createHomePage({ documentPath: "/openapi.json", graphiql: true }), "POST");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ request_id: "req-home" });
  });
});
