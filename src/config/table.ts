// The configuration table: every environment variable once, with what its
// text may be, its default, what it means, and (by its place here) the
// AppConfig field it lands in. AppConfig's type, loadConfig, the defaults and
// the tables in docs/reference/configuration.md and operations.md all come from it.
// Descriptions are Markdown for configuration.md's table, the webhooks' for
// operations.md's (links relative to docs/reference/).
import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "../db/database-url.js";
import { readTracingSettings } from "../telemetry/settings.js";
import { GRAPHQL_SETTINGS } from "./graphql-settings.js";
import { optionalVariable, readElsewhere, variable } from "./setting.js";
import {
  booleanFlag,
  corsOrigins,
  databaseTarget,
  duration,
  httpUrl,
  limit,
  logLevel,
  nonEmpty,
  origin,
  postgresUrlList,
  wholeNumber,
} from "./values.js";
import { WEBHOOK_SETTINGS } from "./webhook-settings.js";

export const CONFIG_TABLE = {
  port: variable({
    name: "PORT",
    default: "4000",
    schema: wholeNumber(0, { max: 65535, unit: "port number" }),
    description: "HTTP port",
  }),
  host: variable({
    name: "HOST",
    default: "0.0.0.0",
    schema: nonEmpty,
    description: "interface to listen on",
  }),
  database: variable({
    name: "DATABASE_URL",
    default: DEFAULT_DATABASE_URL,
    schema: databaseTarget,
    description: "`pglite:<dir>`, `pglite:memory`, or `postgres://user@host:5432/db`",
  }),
  migrateOnStart: variable({
    name: "MIGRATE_ON_START",
    default: "false",
    schema: booleanFlag,
    description: "apply pending migrations at start on PostgreSQL (always done on PGlite)",
  }),
  appBaseUrl: variable({
    name: "APP_BASE_URL",
    default: "http://localhost:4000",
    schema: httpUrl,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Markdown showing how the link is made.
    description: "base of the web application; orders' `url` is `${APP_BASE_URL}/orders/${id}`",
  }),
  publicBaseUrl: variable({
    name: "PUBLIC_BASE_URL",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the loader puts PORT's value in.
    default: "http://localhost:${PORT}",
    schema: origin,
    description:
      "origin (scheme, host, port; no path) the API's own links name, e.g. `Link: <https://api.example.com/api/public/buyer/v1/orders?cursor=…>`; never taken from the `Host` header",
  }),
  trustProxy: variable({
    name: "TRUST_PROXY",
    default: "false",
    schema: booleanFlag,
    description:
      "behind a reverse proxy you run: links take `X-Forwarded-Proto`/`X-Forwarded-Host`, and the client address the last `X-Forwarded-For` entry. Leave off when clients reach the server directly, or they can choose both",
  }),
  authFailuresPerMinute: variable({
    name: "AUTH_FAILURES_PER_MINUTE",
    default: "30",
    schema: limit,
    description:
      "requests answered 401 one client address may make in a minute, shared by all processes; after that its API requests get 429 with `Retry-After` until the minute ends",
  }),
  rateLimitPerMinute: variable({
    name: "RATE_LIMIT_PER_MINUTE",
    default: "600",
    schema: limit,
    description: "requests per API key per minute, shared by all processes",
  }),
  databasePoolSize: variable({
    name: "DATABASE_POOL_SIZE",
    default: "10",
    schema: wholeNumber(1, { max: 1000 }),
    description:
      "PostgreSQL connections per server process for writes, and as many again for reads and for each replica (PGlite has one); a transaction that cannot get one within `DATABASE_TRANSACTION_WAIT` is answered 503 `overloaded` with `Retry-After`",
  }),
  databaseCommandPoolSize: variable({
    name: "DATABASE_COMMAND_POOL_SIZE",
    default: "2",
    schema: wholeNumber(1, { max: 1000 }),
    description:
      "PostgreSQL connections a `buyer-api` command opens (at most `DATABASE_POOL_SIZE`): it sends a few statements, one at a time",
  }),
  databaseIdleTimeoutMs: variable({
    name: "DATABASE_IDLE_TIMEOUT",
    default: "10s",
    schema: duration,
    description:
      "a pooled PostgreSQL connection unused this long is closed; the next statement opens another",
  }),
  databaseTransactionWaitMs: variable({
    name: "DATABASE_TRANSACTION_WAIT",
    default: "2s",
    schema: duration,
    description:
      "how long a write waits for a connection to start its transaction before it is answered 503 `overloaded` with `Retry-After`; nothing was done",
  }),
  databaseNamedStatements: variable({
    name: "DATABASE_NAMED_STATEMENTS",
    default: "true",
    schema: booleanFlag,
    description:
      "the API key lookup every request sends is prepared once per PostgreSQL connection; `false` for PgBouncer before 1.21 in transaction mode ([operations](operations.md#pgbouncer))",
  }),
  databaseReplicaUrls: variable({
    name: "DATABASE_REPLICA_URLS",
    default: "",
    schema: postgresUrlList,
    description:
      "comma-separated `postgres://` URLs of streaming replicas of `DATABASE_URL`: a buyer's reads run on one that has replayed the buyer's last write, the rest on the primary ([operations](operations.md#read-replicas)); empty: every read on the primary",
  }),
  databaseReplicaMaxLagMs: variable({
    name: "DATABASE_REPLICA_MAX_LAG",
    default: "5s",
    schema: duration,
    description:
      "a replica further behind the primary than this is not used until it catches up: how old a read of data no buyer's version covers (another buyer's change to the shared catalogue) may be",
  }),
  webConcurrency: variable({
    name: "WEB_CONCURRENCY",
    default: "1",
    schema: wholeNumber(1, { max: 64 }),
    description: "server processes sharing the port (node:cluster); more than 1 needs PostgreSQL",
  }),
  corsOrigins: variable({
    name: "CORS_ORIGINS",
    default: "",
    schema: corsOrigins,
    description: "browser origins allowed to call the API, comma-separated, or `*`; empty turns CORS off",
  }),
  metricsToken: optionalVariable({
    name: "METRICS_TOKEN",
    whenUnset: "(unset: open)",
    schema: z.string().min(16, "must be at least 16 characters"),
    description: "when set, `/metrics` needs `Authorization: Bearer <token>`",
  }),
  requestTimeoutMs: variable({
    name: "REQUEST_TIMEOUT_MS",
    default: "30000",
    schema: wholeNumber(1000, { unit: "number of milliseconds" }),
    description: "how long a client may take to send a whole request",
  }),
  responseWriteTimeoutMs: variable({
    name: "RESPONSE_WRITE_TIMEOUT_MS",
    default: "30000",
    schema: wholeNumber(1000, { unit: "number of milliseconds" }),
    description:
      "how long a client may take to read a whole answer once it is ready; a slower reader's connection is closed (event streams excepted) ([operations](operations.md#memory-bounds))",
  }),
  maxConcurrentExpensivePerKey: variable({
    name: "MAX_CONCURRENT_EXPENSIVE_PER_KEY",
    // Two: one being worked on while the other is sent; more would hold answers' bytes for slow readers.
    default: "2",
    schema: limit,
    description:
      "expensive requests one API key may have at once on the host (all `WEB_CONCURRENCY` workers together), from their turn until the answer is sent: GraphQL operations costing `GRAPHQL_EXPENSIVE_COST` or more, REST pages of `EXPENSIVE_PAGE_SIZE` or more items not answered from the cache; more wait (`MAX_WAITING_EXPENSIVE_PER_KEY`)",
  }),
  maxWaitingExpensivePerKey: variable({
    name: "MAX_WAITING_EXPENSIVE_PER_KEY",
    // A client's usual pool of connections waits rather than being refused and retrying at once:
    // a waiting request costs nothing, a refused one an admission statement, and its retry another.
    default: "16",
    schema: wholeNumber(0, { max: 1000 }),
    description:
      "expensive requests of one API key that may wait for their turn on the host, beyond those it has at once; one more gets 429 with `Retry-After`",
  }),
  maxRunningExpensive: variable({
    name: "MAX_RUNNING_EXPENSIVE",
    // One on the host: the cores left over serve every other request.
    default: "1",
    schema: limit,
    description:
      "expensive requests being worked on at once on the host, all keys and all `WEB_CONCURRENCY` workers together (the primary keeps the turns), until their answers are made; the rest wait, each key in turn ([operations](operations.md#processes-web_concurrency))",
  }),
  expensivePageSize: variable({
    name: "EXPENSIVE_PAGE_SIZE",
    default: "200",
    schema: wholeNumber(1, { max: 500 }),
    description: "a REST list read asking for this many items or more (`limit`) is expensive",
  }),
  maxSendingBytesPerKey: variable({
    name: "MAX_SENDING_BYTES_PER_KEY",
    default: "33554432",
    schema: wholeNumber(1, { unit: "number of bytes" }),
    description:
      "bytes of answers to one API key not yet sent, per server process, past which its requests get 429 with `Retry-After` until some are sent",
  }),
  responseCacheMaxBytes: variable({
    name: "RESPONSE_CACHE_MAX_BYTES",
    default: "33554432",
    schema: wholeNumber(0, {
      max: 4 * 1024 * 1024 * 1024,
      unit: "number of bytes",
      range: "must be 0 (off) to 4294967296",
    }),
    description:
      "bytes of GET responses each process keeps for repeated reads; `0` turns the cache off ([operations](operations.md#response-cache))",
  }),
  compression: variable({
    name: "COMPRESSION",
    default: "true",
    schema: booleanFlag,
    description:
      "answers in brotli or gzip when the client's `Accept-Encoding` accepts one; `false` sends them as they are, for a proxy in front that compresses ([decisions](../design/decisions.md#compression))",
  }),
  logLevel: variable({
    name: "LOG_LEVEL",
    default: "info",
    schema: logLevel,
    description:
      "`fatal` … `trace`, or `silent`; logs are JSON lines on stdout, one per request, written off the event loop (lines logged during a write go out together in the next); every line is written before the process exits, except on `SIGKILL`",
  }),
  graphql: GRAPHQL_SETTINGS,
  /** OpenTelemetry tracing from the standard OTEL_* variables (docs/reference/operations.md#tracing); null when off. */
  tracing: readElsewhere((environment) => {
    const { settings, problems } = readTracingSettings(environment);
    return { value: settings, problems };
  }),
  webhooks: WEBHOOK_SETTINGS,
};
