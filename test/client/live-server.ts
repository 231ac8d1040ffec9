import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type App, createApp, createEventRenderer } from "../../src/app.js";
import type { WebhookConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { APP_BASE_URL, testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

/** The app on a socket of its own, as a client reaches it, over a fresh database. */
export interface LiveServer {
  app: App;
  database: TestDatabase;
  server: Server;
  origin: string;
  close(): Promise<void>;
}

export async function startLiveServer(
  options: { webhooks?: Partial<WebhookConfig> } = {},
): Promise<LiveServer> {
  const database = await createTestDatabase();
  const app = createApp({
    config: testConfig({ webhooks: options.webhooks }),
    database,
    logger: createLogger("silent"),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    database,
    server,
    origin,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    },
  };
}

/** A fetch that counts the statuses it got, for tests that count what went over the wire. */
export function countingFetch(): { fetch: typeof fetch; statuses: number[]; requests: Request[] } {
  const statuses: number[] = [];
  const requests: Request[] = [];
  return {
    statuses,
    requests,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      const response = await fetch(request);
      statuses.push(response.status);
      return response;
    },
  };
}

/** The webhook worker of a live server: renders its events and delivers them. */
export function startLiveWorker(live: LiveServer, webhooks: WebhookConfig): Promise<WebhookWorker> {
  return startWebhookWorker({
    database: live.database,
    config: webhooks,
    logger: createLogger("silent"),
    render: createEventRenderer({ config: { appBaseUrl: APP_BASE_URL, webhooks }, database: live.database }),
  });
}
