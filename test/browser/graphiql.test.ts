// GraphiQL in a real browser: a front-end developer opens /graphql, puts a
// key in the headers editor, runs the example query and reads the answer,
// and the page never reaches beyond this server. Needs Debian's chromium,
// which `npm test` installs when missing; without it this test fails, it is
// not skipped.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { DEFAULT_GRAPHQL_CONFIG } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { projectRoot } from "../../src/project-root.js";
import { launchBrowser } from "../../tools/browser.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const SCREENSHOT = path.join(projectRoot(), "test-artifacts", "graphiql.png");

describe("GraphiQL in a browser", () => {
  let database: TestDatabase;
  let server: Server;
  let browser: Browser;
  let buyer: SeededBuyer;
  let origin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Browser Buyer");
    await seedOrders(database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 5, 1)), orderStatus: "shipped" },
    ]);
    const app = createApp({
      config: { appBaseUrl: APP_BASE_URL, rateLimitPerMinute: 100_000, graphql: DEFAULT_GRAPHQL_CONFIG },
      database,
      logger: createLogger("silent"),
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

  it("runs the example query with a key typed into the headers editor, loading nothing from elsewhere", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const requested: string[] = [];
    // Every request the page makes is recorded; one that would leave this server is stopped.
    await context.route("**/*", async (route) => {
      const url = new URL(route.request().url());
      requested.push(url.href);
      if (url.protocol.startsWith("http") && url.hostname !== "127.0.0.1") await route.abort();
      else await route.continue();
    });
    const page = await context.newPage();
    await page.goto(`${origin}/graphql`);

    // The headers editor opens with the X-API-KEY template: select its
    // placeholder (one word) and type the key over it.
    const placeholder = page.getByText("bpk_paste_your_api_key_here");
    await placeholder.waitFor();
    await placeholder.dblclick();
    await page.keyboard.insertText(buyer.apiKey);

    await page.getByRole("button", { name: /Execute query/ }).click();
    // Monaco draws spaces as no-break spaces.
    const responseText = async () =>
      ((await page.locator(".graphiql-response").textContent()) ?? "").replaceAll("\u00a0", " ");
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
      return !["data:", "blob:"].includes(url.protocol) && url.host !== new URL(origin).host;
    });
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${origin}/graphql`);
  }, 60_000);
});
