// The demo in a real browser: from the front page to the GraphQL console,
// whose example query runs as it opens, with the demo key already in its
// headers; the front page breaks no rule of its own Content-Security-Policy.
// Needs Debian's chromium, which `npm test` installs when missing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { DEFAULT_GRAPHQL_CONFIG } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { launchBrowser } from "../../tools/browser.js";
import { seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

describe("the demo in a browser", () => {
  let database: TestDatabase;
  let server: Server;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const buyer = await seedBuyer(database, "Demo Browser Buyer");
    await seedOrders(database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 5, 1)), orderStatus: "shipped" },
    ]);
    const app = createApp({
      config: { appBaseUrl: APP_BASE_URL, rateLimitPerMinute: 100_000, graphql: DEFAULT_GRAPHQL_CONFIG },
      database,
      logger: createLogger("silent"),
      demoApiKey: buyer.apiKey,
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database?.close();
  });

  it("goes from the front page to GraphiQL and runs the example query without typing a key", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${origin}/`);
    // The styles apply: the hash in the policy matches the inline style.
    expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).not.toBe("none");
    expect(refused).toEqual([]);

    await page.getByRole("link", { name: "GraphQL console" }).click();
    await page.getByRole("button", { name: /Execute query/ }).click();
    const responseText = async () =>
      ((await page.locator(".graphiql-response").textContent()) ?? "").replaceAll("\u00a0", " ");
    await expect.poll(responseText, { timeout: 20_000 }).toContain("Demo Browser Buyer");
    expect(await responseText()).toContain("SHIPPED");
    await context.close();
  }, 60_000);
});
