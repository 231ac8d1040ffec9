// GET /, the page a newcomer opens first (src/http/home-page.ts): it says where
// everything is and how to get a key (in the demo, shows the demo key with a
// request to try), and loads nothing from elsewhere. The app serving it is
// console-routes.test.ts's.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHomePage, type HomePageOptions } from "../../src/http/home-page.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";

const DEMO_KEY = "bpk_demo_aurora_cosmetics_000000000000000001";

function homePage(options: Partial<HomePageOptions> = {}, method = "GET"): Response {
  const url = new URL("http://localhost/");
  const request = new Request(url, { method, headers: { accept: "text/html" } });
  return createHomePage({ documentPath: OPENAPI_PATH, graphiql: true, ...options })(request, url, "req-1");
}

describe("GET /", () => {
  it("links the reference, the GraphQL console, the OpenAPI document and health, and says how to get a key", async () => {
    const response = homePage();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await response.text();
    const links = [...page.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(
      expect.arrayContaining(["/docs", "/graphql", "/api/public/buyer/v1/openapi.json", "/healthz"]),
    );
    expect(page).toContain("buyer-api keys create --buyer &lt;buyer id&gt;");
    expect(page).not.toContain("bpk_demo");
  });

  it("loads nothing from elsewhere: the one inline style is allowed by its hash", async () => {
    const response = homePage();
    const page = await response.text();
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page).not.toContain("<script");
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
  });

  it("shows the demo key, with a request to try, when the server runs the demo", async () => {
    const response = homePage({ demoApiKey: DEMO_KEY });
    const page = await response.text();
    expect(page).toContain(DEMO_KEY);
    expect(page).toContain(
      `curl -sS -H 'X-API-KEY: ${DEMO_KEY}' 'http://localhost/api/public/buyer/v1/orders`,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("does not link a GraphQL console that is switched off", async () => {
    const page = await homePage({ graphiql: false }).text();
    expect(page).not.toContain('href="/graphql"');
    expect(page).toContain('href="/docs"');
  });

  it("answers HEAD, and refuses other methods with 405", () => {
    expect(homePage({}, "HEAD").status).toBe(200);
    const refused = homePage({}, "POST");
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD");
  });
});
