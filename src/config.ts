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
  /** Open `orderUpdated` subscriptions one API key may hold in one server process. */
  maxSubscriptionsPerKey: number;
  persistedDocuments: PersistedDocumentsConfig;
}

export const DEFAULT_GRAPHQL_CONFIG: GraphQLConfig = {
  graphiql: true,
  introspection: true,
  limits: DEFAULT_GRAPHQL_LIMITS,
  work: DEFAULT_GRAPHQL_WORK_BOUNDS,
  maxSubscriptionsPerKey: 10,
  persistedDocuments: { manifest: new Map(), only: false },
};

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
  REQUEST_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number")
    .min(1000, "must be at least 1000")
    .default(30_000),
});

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** PostgreSQL connections per server process (PGlite has one). */
  databasePoolSize: number;
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
  /** OpenTelemetry tracing from the standard OTEL_* variables; null when off. */
  tracing: TracingSettings | null;
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
  if (!parsed.success || !database || problems.length > 0) throw new ConfigError(problems);
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    database,
    databasePoolSize: values.DATABASE_POOL_SIZE,
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
    tracing: tracing.settings,
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
