// The demo in a real browser: from the front page to the GraphQL console,
// whose example query runs as it opens, with the demo key already in its
// headers; the front page breaks no rule of its own Content-Security-Policy.
// Needs Debian's chromium, which `npm test` installs when missing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserApp, graphiqlResponse, startBrowserApp } from "../support/browser-app.js";

describe("the demo in a browser", () => {
  let app: BrowserApp;

  beforeAll(async () => {
    app = await startBrowserApp("Demo Browser Buyer", { demo: true });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("goes from the front page to GraphiQL and runs the example query without typing a key", async () => {
    const context = await app.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${app.origin}/`);
    // The styles apply: the hash in the policy matches the inline style.
    expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).not.toBe("none");
    expect(refused).toEqual([]);

    await page.getByRole("link", { name: "GraphQL console" }).click();
    await page.getByRole("button", { name: /Execute query/ }).click();
    const responseText = () => graphiqlResponse(page);
    await expect.poll(responseText, { timeout: 20_000 }).toContain("Demo Browser Buyer");
    expect(await responseText()).toContain("SHIPPED");
    await context.close();
  }, 60_000);
});
