import { type App, createApp } from "../../src/app.js";
import {
  type AppConfig,
  type ConfigOverrides,
  configWith,
  type GraphQLConfig,
  type WebhookConfig,
} from "../../src/config.js";
import type { DatabaseOptions } from "../../src/db/database.js";
import { createMetrics, type Metrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { assertMatchesContract } from "./contract.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/** The origin tests send requests to, and that the API's links name. */
export const PUBLIC_BASE_URL = "http://localhost";
export const API = `${PUBLIC_BASE_URL}/api/public/buyer/v1`;
export const APP_BASE_URL = "https://app.example.test";

/** The configuration's defaults with the tests' base URLs and a rate limit no test reaches unless it sets one. */
export function testConfig(overrides: ConfigOverrides = {}): AppConfig {
  return configWith({
    appBaseUrl: APP_BASE_URL,
    publicBaseUrl: PUBLIC_BASE_URL,
    rateLimitPerMinute: 100_000,
    ...overrides,
  });
}

export interface TestApp {
  app: App;
  /** The app's metrics, for a webhook worker of the test to count into. */
  metrics: Metrics;
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
    database?: Partial<Omit<DatabaseOptions, "onQuery">>;
  } = {},
): Promise<TestApp> {
  const queries: string[] = [];
  const database = await createTestDatabase({ ...options.database, onQuery: (sql) => queries.push(sql) });
  const metrics = createMetrics();
  const app = createApp({
    metrics,
    config: testConfig({
      ...(options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: options.rateLimitPerMinute }),
      graphql: options.graphql,
      webhooks: options.webhooks,
    }),
    database,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
  });
  return {
    app,
    metrics,
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
