// /docs in a real browser: Redoc renders every operation from the served
// document, and the page fetches nothing from any other host.
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../src/contract/routes.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";
import { launchBrowser } from "../../tools/browser.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

const SCREENSHOT = "test-artifacts/docs.png";
/** The host a request went to; blob: URLs belong to the page that made them, data: URLs to nobody. */
function hostOf(url: string): string | null {
  if (url.startsWith("data:")) return null;
  const parsed = new URL(url.startsWith("blob:") ? url.slice("blob:".length) : url);
  return parsed.hostname;
}

describe("the API reference in a browser", () => {
  let harness: TestApp;
  let server: Server;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    harness = await createTestApp();
    server = createServer(harness.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await harness?.close();
  });

  it("lists all six operations, loading everything from this server only", { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const requested: string[] = [];
    context.on("request", (request) => requested.push(request.url()));
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));

    await page.goto(`${origin}/docs`);
    for (const route of routes) {
      await page
        .locator('[role="menuitem"]', { hasText: route.summary })
        .first()
        .waitFor({ timeout: 60_000 });
    }
    await expect(page.title()).resolves.toBe("Buyer Public API v1 reference");
    await page.locator('[role="menuitem"]', { hasText: "List orders" }).first().click();
    await page.getByRole("heading", { name: "List orders" }).waitFor();
    mkdirSync("test-artifacts", { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    await context.close();

    expect(pageErrors).toEqual([]);
    expect(requested).toContain(`${origin}${OPENAPI_PATH}`);
    expect(requested).toContainEqual(expect.stringMatching(/\/docs\/redoc\.standalone\.[0-9a-f]{12}\.js$/));
    const elsewhere = requested.filter((url) => {
      const host = hostOf(url);
      return host !== null && host !== "127.0.0.1";
    });
    expect(elsewhere).toEqual([]);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
