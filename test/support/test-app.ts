import { type App, createApp } from "../../src/app.js";
import {
  DEFAULT_GRAPHQL_CONFIG,
  DEFAULT_WEBHOOK_CONFIG,
  type GraphQLConfig,
  type WebhookConfig,
} from "../../src/config.js";
import type { DatabaseOptions } from "../../src/db/database.js";
import { createLogger } from "../../src/logger.js";
import { assertMatchesContract } from "./contract.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

export const API = "http://localhost/api/public/buyer/v1";
export const APP_BASE_URL = "https://app.example.test";

export interface TestApp {
  app: App;
  database: TestDatabase;
  /** SQL statements Prisma sent since the last `resetQueries()`. */
  queries: string[];
  resetQueries(): void;
  close(): Promise<void>;
}

/** One app over one fresh database per test file; requests go through `app.fetch` as a client's would. */
export async function createTestApp(
  options: {
    rateLimitPerMinute?: number;
    graphql?: Partial<GraphQLConfig>;
    webhooks?: Partial<WebhookConfig>;
    database?: Omit<DatabaseOptions, "onQuery">;
  } = {},
): Promise<TestApp> {
  const queries: string[] = [];
  const database = await createTestDatabase({ ...options.database, onQuery: (sql) => queries.push(sql) });
  const app = createApp({
    config: {
      appBaseUrl: APP_BASE_URL,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
      graphql: { ...DEFAULT_GRAPHQL_CONFIG, ...options.graphql },
      webhooks: { ...DEFAULT_WEBHOOK_CONFIG, ...options.webhooks },
    },
    database,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
  });
  return {
    app,
    database,
    queries,
    resetQueries: () => {
      queries.length = 0;
    },
    close: () => database.close(),
  };
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * A request to the v1 API (`path` relative to it, or absolute). The response
 * must match the OpenAPI document; a mismatch fails the test that made it.
 */
export async function callApi(
  app: App,
  method: string,
  path: string,
  { key, body, rawBody, headers = {} }: CallOptions = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const url = path.startsWith("http") ? path : `${API}${path}`;
  const sendsBody = body !== undefined || rawBody !== undefined;
  const response = await app.fetch(url, {
    method,
    headers: {
      ...(key ? { "x-api-key": key } : {}),
      ...(sendsBody ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });
  const text = await response.text();
  assertMatchesContract({ method, url, status: response.status, headers: response.headers, text });
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
