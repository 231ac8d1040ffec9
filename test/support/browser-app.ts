// The app on a real socket with one buyer who has a shipped order, and a
// browser to open it with: the set-up of the tests that drive GraphiQL.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { launchBrowser } from "../../tools/browser.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "./seed.js";
import { testConfig } from "./test-app.js";
import { createTestDatabase } from "./test-database.js";

export interface BrowserApp {
  origin: string;
  browser: Browser;
  buyer: SeededBuyer;
  close(): Promise<void>;
}

/** Starts it all; with `demo`, the buyer's key is the demo key GraphiQL opens with. */
export async function startBrowserApp(
  buyerName: string,
  options: { demo?: boolean } = {},
): Promise<BrowserApp> {
  const database = await createTestDatabase();
  const buyer = await seedBuyer(database, buyerName);
  await seedOrders(database, buyer, [{ createdAt: new Date(Date.UTC(2025, 5, 1)), orderStatus: "shipped" }]);
  const app = createApp({
    config: testConfig(),
    database,
    logger: createLogger("silent"),
    ...(options.demo ? { demoApiKey: buyer.apiKey } : {}),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await launchBrowser();
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    buyer,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    },
  };
}

/** What GraphiQL's response pane shows; Monaco draws spaces as no-break spaces. */
export async function graphiqlResponse(page: Page): Promise<string> {
  return ((await page.locator(".graphiql-response").textContent()) ?? "").replaceAll("\u00a0", " ");
}
