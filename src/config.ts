import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { type DatabaseTarget, DatabaseUrlError, parseDatabaseUrl } from "./db/database-url.js";
import { readTracingSettings, type TracingSettings } from "./telemetry/settings.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** What one GraphQL operation may ask for before it is refused unexecuted. */
export interface GraphQLLimits {
  /** Nesting of fields; connections count two levels (`edges { node }`). */
  maxDepth: number;
  /** Aliased fields in one operation: the usual way to batch many expensive fields. */
  maxAliases: number;
  /** Estimated cost; each connection multiplies the cost of what it pages by its page size (`first`, from the document, a variable or the default). */
  maxCost: number;
  /** Lexical tokens in the document, checked while parsing. */
  maxTokens: number;
  /** Directives in one operation. */
  maxDirectives: number;
}

// Sized so that the REST adapter's largest document, sent to /graphql with a
// literal `first: 500`, still passes, while nesting 500-item pages in 500-item
// pages does not.
export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxCost: 200_000,
  maxTokens: 2_000,
  maxDirectives: 50,
};

/** How much work GraphQL operations may do once they run. */
export interface GraphQLWorkBounds {
  /** A query operation is stopped after this long; on PostgreSQL its SQL is cancelled too. */
  timeoutMs: number;
  /** Operations costing at least this much count as expensive. */
  expensiveCost: number;
  /** Expensive operations one API key may run at once in one server process. */
  maxConcurrentExpensive: number;
}

export const DEFAULT_GRAPHQL_WORK_BOUNDS: GraphQLWorkBounds = {
  timeoutMs: 15_000,
  expensiveCost: 20_000,
  maxConcurrentExpensive: 4,
};

/** What /graphql keeps in memory in one server process, whatever clients send (docs/operations.md). */
export interface GraphQLMemoryBounds {
  /** Documents registered by automatic persisted queries: at most this many… */
  apqMaxDocuments: number;
  /** …holding at most this many bytes of text; the least recently used go first. */
  apqMaxBytes: number;
  /** Parsed documents and parse errors kept so that a document sent again is not parsed again, in estimated bytes. */
  documentCacheMaxBytes: number;
}

export const DEFAULT_GRAPHQL_MEMORY_BOUNDS: GraphQLMemoryBounds = {
  apqMaxDocuments: 1_000,
  apqMaxBytes: 8 * 1024 * 1024,
  documentCacheMaxBytes: 32 * 1024 * 1024,
};

/** Documents clients may send by hash instead of in full (docs/graphql.md "Persisted documents"). */
export interface PersistedDocumentsConfig {
  /** sha256 (hex) → document, from the manifest file; empty without one. */
  manifest: ReadonlyMap<string, string>;
  /** Accept only the manifest's documents: nothing sent in full, no automatic registration. */
  only: boolean;
}

export interface GraphQLConfig {
  /** GraphiQL at GET /graphql for browsers. */
  graphiql: boolean;
  /** Schema introspection (`__schema`, `__type`); when off, error messages suggest no field names either. */
  introspection: boolean;
  limits: GraphQLLimits;
  work: GraphQLWorkBounds;
  memory: GraphQLMemoryBounds;
  /** Open `orderUpdated` subscriptions one API key may hold in one server process. */
  maxSubscriptionsPerKey: number;
  persistedDocuments: PersistedDocumentsConfig;
}

export const DEFAULT_GRAPHQL_CONFIG: GraphQLConfig = {
  graphiql: true,
  introspection: true,
  limits: DEFAULT_GRAPHQL_LIMITS,
  work: DEFAULT_GRAPHQL_WORK_BOUNDS,
  memory: DEFAULT_GRAPHQL_MEMORY_BOUNDS,
  maxSubscriptionsPerKey: 10,
  persistedDocuments: { manifest: new Map(), only: false },
};

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export interface WebhookConfig {
  /** Endpoint URLs may be plain `http` (tests and the demo). */
  allowHttp: boolean;
  /** Endpoint URLs may resolve to loopback, private, link-local or other non-public addresses. */
  allowPrivateNetworks: boolean;
  /** Encrypts signing secrets at rest: the first key encrypts, every key decrypts (rotation). */
  secretKeys: Buffer[];
  /** True when no WEBHOOK_SECRET_KEY was set and the fixed development key is used (never in production). */
  usingDevelopmentKey: boolean;
  /** Delay before each retry after a failed attempt; the last entry is the last retry. */
  retryScheduleMs: number[];
  /** Each delay is moved by up to this share either way, so retries of many deliveries spread out. */
  retryJitter: number;
  /** An attempt that has not answered 2xx within this long failed. */
  deliveryTimeoutMs: number;
  /** A claimed delivery whose process died is taken up again after this long. */
  leaseMs: number;
  /** An endpoint failing (a delivery ran out of retries) for this long without a success is disabled. */
  disableFailingAfterMs: number;
  /** Events (and their deliveries) older than this are pruned. */
  eventRetentionMs: number;
  /** Whether `npm start` runs the delivery worker in this process. */
  workerEnabled: boolean;
  /** How often an idle worker looks for due work. */
  pollIntervalMs: number;
  /** Deliveries one process attempts at once. */
  concurrency: number;
  /** Deliveries to one endpoint attempted at once, by all processes together. */
  endpointConcurrency: number;
  /** Deliveries to one buyer's endpoints attempted at once, by all processes together. */
  buyerConcurrency: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** About 3 days in all, growing roughly exponentially (docs/webhooks.md, "Retries"). */
export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,14h,20h,20h";

/**
 * Used only when WEBHOOK_SECRET_KEY is unset outside production, so that tests
 * and the demo run without set-up. Known to everyone: never protects anything.
 */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash("sha256")
  .update("buyer-api development webhook secret key: public, never for production")
  .digest();

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  allowHttp: false,
  allowPrivateNetworks: false,
  secretKeys: [DEVELOPMENT_WEBHOOK_SECRET_KEY],
  usingDevelopmentKey: true,
  retryScheduleMs: parseDurationList(DEFAULT_RETRY_SCHEDULE) ?? [],
  retryJitter: 0.2,
  deliveryTimeoutMs: 10 * SECOND,
  leaseMs: 2 * MINUTE,
  disableFailingAfterMs: 5 * DAY,
  eventRetentionMs: 30 * DAY,
  workerEnabled: true,
  pollIntervalMs: SECOND,
  concurrency: 20,
  endpointConcurrency: 5,
  buyerConcurrency: 10,
};

/** `250ms`, `5s`, `30m`, `2h`, `3d` → milliseconds; null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * (DURATION_UNITS[match[2] ?? ""] ?? 0);
}

/** A comma-separated list of durations; null when any item is not one. */
export function parseDurationList(text: string): number[] | null {
  const items = text.split(",").map(parseDuration);
  return items.every((item): item is number => item !== null) ? items : null;
}

const duration = (defaultValue: string) =>
  z
    .string()
    .default(defaultValue)
    .transform((text, context) => {
      const value = parseDuration(text);
      if (value === null || value <= 0) {
        context.addIssue({ code: "custom", message: "must be a duration such as 500ms, 10s, 5m, 2h or 30d" });
        return z.NEVER;
      }
      return value;
    });

/** A 256-bit key, written as 64 hex digits or as base64. */
function readSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  return key.length === 32 ? key : null;
}

/** PostgreSQL connections per server process. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/** Bytes of GET responses each server process keeps (docs/operations.md, "Response cache"). */
export const DEFAULT_RESPONSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

function limit(defaultValue: number) {
  return z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(defaultValue);
}

const envSchema = z.object({
  PORT: z.coerce
    .number({ message: "must be a port number" })
    .int("must be a whole number")
    .min(0, "must be 0 to 65535")
    .max(65535, "must be 0 to 65535")
    .default(4000),
  HOST: z.string().min(1, "must not be empty").default("0.0.0.0"),
  DATABASE_URL: z.string().optional(),
  APP_BASE_URL: z
    .url({ message: "must be an absolute http(s) URL", protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ""))
    .default("http://localhost:4000"),
  PUBLIC_BASE_URL: z
    .url({ message: "must be an absolute http(s) URL", protocol: /^https?$/ })
    .refine((url) => new URL(url).pathname === "/" && !new URL(url).search, {
      message: "must be an origin such as https://api.example.com, without a path",
    })
    .transform((url) => new URL(url).origin)
    .optional(),
  TRUST_PROXY: booleanFlag.default(false),
  AUTH_FAILURES_PER_MINUTE: limit(30),
  GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY: limit(DEFAULT_GRAPHQL_CONFIG.maxSubscriptionsPerKey),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .default(600),
  MIGRATE_ON_START: booleanFlag.default(false),
  DATABASE_POOL_SIZE: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 to 1000")
    .max(1000, "must be 1 to 1000")
    .default(DEFAULT_DATABASE_POOL_SIZE),
  DATABASE_NAMED_STATEMENTS: booleanFlag.default(true),
  WEB_CONCURRENCY: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 to 64")
    .max(64, "must be 1 to 64")
    .default(1),
  GRAPHIQL_ENABLED: booleanFlag.default(true),
  GRAPHQL_INTROSPECTION: booleanFlag.default(true),
  GRAPHQL_MAX_DEPTH: limit(DEFAULT_GRAPHQL_LIMITS.maxDepth),
  GRAPHQL_MAX_ALIASES: limit(DEFAULT_GRAPHQL_LIMITS.maxAliases),
  GRAPHQL_MAX_COST: limit(DEFAULT_GRAPHQL_LIMITS.maxCost),
  GRAPHQL_MAX_TOKENS: limit(DEFAULT_GRAPHQL_LIMITS.maxTokens),
  GRAPHQL_MAX_DIRECTIVES: limit(DEFAULT_GRAPHQL_LIMITS.maxDirectives),
  GRAPHQL_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(100, "must be at least 100")
    .default(DEFAULT_GRAPHQL_WORK_BOUNDS.timeoutMs),
  GRAPHQL_PERSISTED_DOCUMENTS: z.string().optional(),
  GRAPHQL_PERSISTED_ONLY: booleanFlag.default(false),
  GRAPHQL_EXPENSIVE_COST: limit(DEFAULT_GRAPHQL_WORK_BOUNDS.expensiveCost),
  GRAPHQL_MAX_CONCURRENT_EXPENSIVE: limit(DEFAULT_GRAPHQL_WORK_BOUNDS.maxConcurrentExpensive),
  GRAPHQL_APQ_MAX_DOCUMENTS: limit(DEFAULT_GRAPHQL_MEMORY_BOUNDS.apqMaxDocuments),
  GRAPHQL_APQ_MAX_BYTES: limit(DEFAULT_GRAPHQL_MEMORY_BOUNDS.apqMaxBytes),
  GRAPHQL_DOCUMENT_CACHE_MAX_BYTES: limit(DEFAULT_GRAPHQL_MEMORY_BOUNDS.documentCacheMaxBytes),
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim().replace(/\/+$/, ""))
        .filter((origin) => origin !== ""),
    )
    .refine((origins) => origins.every((origin) => origin === "*" || /^https?:\/\/[^/\s]+$/.test(origin)), {
      message: "must be * or a comma-separated list of origins such as https://app.example.com",
    }),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  RESPONSE_CACHE_MAX_BYTES: z.coerce
    .number({ message: "must be a number of bytes" })
    .int("must be a whole number")
    .min(0, "must be 0 (off) to 4294967296")
    .max(4 * 1024 * 1024 * 1024, "must be 0 (off) to 4294967296")
    .default(DEFAULT_RESPONSE_CACHE_MAX_BYTES),
  COMPRESSION: booleanFlag.default(true),
  REQUEST_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(1000, "must be at least 1000")
    .default(30_000),
  NODE_ENV: z.string().optional(),
  WEBHOOK_ALLOW_HTTP: booleanFlag.default(false),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  WEBHOOK_SECRET_KEY: z.string().optional(),
  WEBHOOK_SECRET_KEY_PREVIOUS: z.string().optional(),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((text, context) => {
      const value = parseDurationList(text);
      if (value === null || value.length === 0 || value.length > 50) {
        context.addIssue({
          code: "custom",
          message: "must be 1 to 50 comma-separated durations such as 5s,5m,30m,2h",
        });
        return z.NEVER;
      }
      return value;
    }),
  WEBHOOK_TIMEOUT: duration("10s"),
  WEBHOOK_LEASE: duration("2m"),
  WEBHOOK_DISABLE_FAILING_AFTER: duration("5d"),
  WEBHOOK_EVENT_RETENTION: duration("30d"),
  WEBHOOK_WORKER_ENABLED: booleanFlag.default(true),
  WEBHOOK_POLL_INTERVAL: duration("1s"),
  WEBHOOK_CONCURRENCY: limit(DEFAULT_WEBHOOK_CONFIG.concurrency),
  WEBHOOK_ENDPOINT_CONCURRENCY: limit(DEFAULT_WEBHOOK_CONFIG.endpointConcurrency),
  WEBHOOK_BUYER_CONCURRENCY: limit(DEFAULT_WEBHOOK_CONFIG.buyerConcurrency),
});

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** PostgreSQL connections per server process (PGlite has one). */
  databasePoolSize: number;
  /** The statements every request sends are prepared once per connection; off for poolers that cannot follow them. */
  databaseNamedStatements: boolean;
  appBaseUrl: string;
  /** Origin of the links the API answers with (`Link`); `http://localhost:${PORT}` unless set. */
  publicBaseUrl: string;
  /** Behind a reverse proxy: links and the client address come from its X-Forwarded-* headers. */
  trustProxy: boolean;
  /** Requests refused 401 one client address may make in a minute before the rest are refused 429. */
  authFailuresPerMinute: number;
  logLevel: (typeof LOG_LEVELS)[number];
  rateLimitPerMinute: number;
  migrateOnStart: boolean;
  /** Server processes `npm start` runs; more than one needs PostgreSQL. */
  webConcurrency: number;
  graphql: GraphQLConfig;
  /** Browser origins allowed to call the API; empty means CORS is off. */
  corsOrigins: string[];
  /** How long a client may take to send a whole request. */
  requestTimeoutMs: number;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Bytes of GET responses each server process keeps for repeated reads; 0 turns the cache off. */
  responseCacheMaxBytes: number;
  /** Answers in brotli or gzip when the client accepts them; false leaves it to a proxy in front. */
  compression: boolean;
  /** OpenTelemetry tracing from the standard OTEL_* variables; null when off. */
  tracing: TracingSettings | null;
  webhooks: WebhookConfig;
}

/** One line per bad variable: which one and why. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = envSchema.safeParse(present);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join(".")}: ${issue.message}`);
    }
  }
  let database: DatabaseTarget | undefined;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (error) {
    if (!(error instanceof DatabaseUrlError)) throw error;
    problems.push(error.message.replace(/^DATABASE_URL /, "DATABASE_URL: "));
  }
  const tracing = readTracingSettings(env);
  problems.push(...tracing.problems);
  const persisted = readPersistedDocuments(
    present.GRAPHQL_PERSISTED_DOCUMENTS,
    parsed.data?.GRAPHQL_PERSISTED_ONLY,
  );
  problems.push(...persisted.problems);
  if (parsed.success && database?.kind === "pglite" && parsed.data.WEB_CONCURRENCY > 1) {
    problems.push(
      "WEB_CONCURRENCY: the embedded database (PGlite) serves one process; use 1, or PostgreSQL for more",
    );
  }
  const secretKeys: Buffer[] = [];
  if (parsed.success) {
    const { WEBHOOK_SECRET_KEY: current, WEBHOOK_SECRET_KEY_PREVIOUS: previous, NODE_ENV } = parsed.data;
    if (current === undefined) {
      if (NODE_ENV === "production") {
        problems.push(
          "WEBHOOK_SECRET_KEY: must be set in production (32 random bytes as base64: openssl rand -base64 32)",
        );
      }
    } else {
      const key = readSecretKey(current);
      if (key) secretKeys.push(key);
      else problems.push("WEBHOOK_SECRET_KEY: must be 32 bytes, as base64 or 64 hex digits");
    }
    for (const text of (previous ?? "").split(",").filter((item) => item.trim() !== "")) {
      const key = readSecretKey(text);
      if (key) secretKeys.push(key);
      else
        problems.push("WEBHOOK_SECRET_KEY_PREVIOUS: each key must be 32 bytes, as base64 or 64 hex digits");
    }
  }
  if (!parsed.success || !database || problems.length > 0) throw new ConfigError(problems);
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    database,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    databaseNamedStatements: values.DATABASE_NAMED_STATEMENTS,
    appBaseUrl: values.APP_BASE_URL,
    publicBaseUrl: values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`,
    trustProxy: values.TRUST_PROXY,
    authFailuresPerMinute: values.AUTH_FAILURES_PER_MINUTE,
    logLevel: values.LOG_LEVEL,
    rateLimitPerMinute: values.RATE_LIMIT_PER_MINUTE,
    migrateOnStart: values.MIGRATE_ON_START,
    webConcurrency: values.WEB_CONCURRENCY,
    corsOrigins: values.CORS_ORIGINS,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
    metricsToken: values.METRICS_TOKEN ?? null,
    responseCacheMaxBytes: values.RESPONSE_CACHE_MAX_BYTES,
    compression: values.COMPRESSION,
    tracing: tracing.settings,
    webhooks: {
      allowHttp: values.WEBHOOK_ALLOW_HTTP,
      allowPrivateNetworks: values.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      secretKeys:
        values.WEBHOOK_SECRET_KEY === undefined
          ? [DEVELOPMENT_WEBHOOK_SECRET_KEY, ...secretKeys]
          : secretKeys,
      usingDevelopmentKey: values.WEBHOOK_SECRET_KEY === undefined,
      retryScheduleMs: values.WEBHOOK_RETRY_SCHEDULE,
      retryJitter: DEFAULT_WEBHOOK_CONFIG.retryJitter,
      deliveryTimeoutMs: values.WEBHOOK_TIMEOUT,
      leaseMs: values.WEBHOOK_LEASE,
      disableFailingAfterMs: values.WEBHOOK_DISABLE_FAILING_AFTER,
      eventRetentionMs: values.WEBHOOK_EVENT_RETENTION,
      workerEnabled: values.WEBHOOK_WORKER_ENABLED,
      pollIntervalMs: values.WEBHOOK_POLL_INTERVAL,
      concurrency: values.WEBHOOK_CONCURRENCY,
      endpointConcurrency: values.WEBHOOK_ENDPOINT_CONCURRENCY,
      buyerConcurrency: values.WEBHOOK_BUYER_CONCURRENCY,
    },
    graphql: {
      graphiql: values.GRAPHIQL_ENABLED,
      introspection: values.GRAPHQL_INTROSPECTION,
      limits: {
        maxDepth: values.GRAPHQL_MAX_DEPTH,
        maxAliases: values.GRAPHQL_MAX_ALIASES,
        maxCost: values.GRAPHQL_MAX_COST,
        maxTokens: values.GRAPHQL_MAX_TOKENS,
        maxDirectives: values.GRAPHQL_MAX_DIRECTIVES,
      },
      work: {
        timeoutMs: values.GRAPHQL_TIMEOUT_MS,
        expensiveCost: values.GRAPHQL_EXPENSIVE_COST,
        maxConcurrentExpensive: values.GRAPHQL_MAX_CONCURRENT_EXPENSIVE,
      },
      memory: {
        apqMaxDocuments: values.GRAPHQL_APQ_MAX_DOCUMENTS,
        apqMaxBytes: values.GRAPHQL_APQ_MAX_BYTES,
        documentCacheMaxBytes: values.GRAPHQL_DOCUMENT_CACHE_MAX_BYTES,
      },
      maxSubscriptionsPerKey: values.GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY,
      persistedDocuments: { manifest: persisted.manifest, only: values.GRAPHQL_PERSISTED_ONLY },
    },
  };
}

/**
 * The persisted documents manifest: a JSON object of sha256 hash (hex, or
 * `sha256:<hex>`) → document, as graphql-codegen's client preset writes it.
 * Every hash is checked against its document, so a stale manifest stops the
 * process at start instead of running the wrong document.
 */
function readPersistedDocuments(
  path: string | undefined,
  only: boolean | undefined,
): { manifest: Map<string, string>; problems: string[] } {
  const manifest = new Map<string, string>();
  if (path === undefined) {
    return {
      manifest,
      problems: only
        ? ["GRAPHQL_PERSISTED_ONLY: needs GRAPHQL_PERSISTED_DOCUMENTS, the manifest of accepted documents"]
        : [],
    };
  }
  const problem = (why: string) => ({ manifest, problems: [`GRAPHQL_PERSISTED_DOCUMENTS: ${path} ${why}`] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = error instanceof SyntaxError ? "is not JSON" : "cannot be read";
    return problem(reason);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return problem("must be a JSON object of sha256 hash → document");
  }
  for (const [id, document] of Object.entries(parsed)) {
    const hash = id.startsWith("sha256:") ? id.slice("sha256:".length) : id;
    if (typeof document !== "string") return problem(`has a non-string document under ${id}`);
    if (createHash("sha256").update(document).digest("hex") !== hash) {
      return problem(`has a document whose sha256 is not its key ${id}`);
    }
    manifest.set(hash, document);
  }
  return { manifest, problems: [] };
}
