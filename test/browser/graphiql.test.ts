// GraphiQL in a real browser: a front-end developer opens /graphql, puts a
// key in the headers editor, runs the example query and reads the answer,
// and the page never reaches beyond this server. Needs Debian's chromium,
// which `npm test` installs when missing; without it this test fails, it is
// not skipped.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/project-root.js";
import { type BrowserApp, graphiqlResponse, startBrowserApp } from "../support/browser-app.js";

const SCREENSHOT = path.join(projectRoot(), "test-artifacts", "graphiql.png");

describe("GraphiQL in a browser", () => {
  let app: BrowserApp;

  beforeAll(async () => {
    app = await startBrowserApp("Browser Buyer");
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("runs the example query with a key typed into the headers editor, loading nothing from elsewhere", async () => {
    const context = await app.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const requested: string[] = [];
    // Every request the page makes is recorded; one that would leave this server is stopped.
    await context.route("**/*", async (route) => {
      const url = new URL(route.request().url());
      requested.push(url.href);
      if (url.protocol.startsWith("http") && url.hostname !== "127.0.0.1") await route.abort();
      else await route.continue();
    });
    const page = await context.newPage();
    await page.goto(`${app.origin}/graphql`);

    // The headers editor opens with the X-API-KEY template: select its
    // placeholder (one word) and type the key over it.
    const placeholder = page.getByText("bpk_paste_your_api_key_here");
    await placeholder.waitFor();
    await placeholder.dblclick();
    await page.keyboard.insertText(app.buyer.apiKey);

    await page.getByRole("button", { name: /Execute query/ }).click();
    const responseText = () => graphiqlResponse(page);
    await expect.poll(responseText, { timeout: 20_000 }).toContain("Browser Buyer");
    const answer = await responseText();
    expect(answer).toContain('"totalCount": 1');
    expect(answer).toContain("SHIPPED");
    expect(answer).not.toContain("UNAUTHENTICATED");

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    await context.close();

    const elsewhere = requested.filter((href) => {
      const url = new URL(href);
      return !["data:", "blob:"].includes(url.protocol) && url.host !== new URL(app.origin).host;
    });
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${app.origin}/graphql`);
  }, 60_000);
});
