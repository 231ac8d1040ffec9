import { describe, expect, it } from "vitest";
import { databaseOptions, poolOptions } from "../src/config/database-options.js";
import { DEFAULT_CONFIG, loadConfig } from "../src/config.js";
import { parseDatabaseUrl } from "../src/db/database-url.js";
import { createLogger } from "../src/logger.js";
import { configProblems } from "./support/config-problems.js";

describe("configuration", () => {
  it("has working defaults: port 4000, embedded database, 600 requests a minute", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: "0.0.0.0",
      database: { kind: "pglite", dataDir: "./.data/pglite" },
      rateLimitPerMinute: 600,
      migrateOnStart: false,
      logLevel: "info",
    });
  });

  it("names every bad variable, one line each, and why", () => {
    const problems = configProblems({
      PORT: "eighty",
      RATE_LIMIT_PER_MINUTE: "0",
      LOG_LEVEL: "loud",
      MIGRATE_ON_START: "maybe",
      APP_BASE_URL: "not a url",
      DATABASE_URL: "mysql://localhost/db",
    });
    expect(problems).toHaveLength(6);
    for (const variable of [
      "PORT",
      "RATE_LIMIT_PER_MINUTE",
      "LOG_LEVEL",
      "MIGRATE_ON_START",
      "APP_BASE_URL",
    ]) {
      expect(problems.some((line) => line.startsWith(`${variable}:`))).toBe(true);
    }
    expect(problems).toContain(
      "DATABASE_URL: scheme 'mysql' is not supported: use pglite:<dir>, pglite:memory or postgres://...",
    );
  });

  it("says one line per bad variable, even when its value breaks several rules", () => {
    expect(
      configProblems({ PUBLIC_BASE_URL: "ftp://a.example/x", WEBHOOK_SECRET_KEY_PREVIOUS: "a,b" }),
    ).toEqual([
      "PUBLIC_BASE_URL: must be an absolute http(s) URL",
      "WEBHOOK_SECRET_KEY_PREVIOUS: each key must be 32 bytes, as base64 or 64 hex digits",
    ]);
  });

  it("names a bad PORT once, not again through PUBLIC_BASE_URL, whose default is made from it", () => {
    expect(configProblems({ PORT: "eighty" })).toEqual(["PORT: must be a port number"]);
    expect(configProblems({ PORT: "70000", PUBLIC_BASE_URL: "https://api.example.com" })).toEqual([
      "PORT: must be 0 to 65535",
    ]);
  });

  it("keeps 32 MiB of responses per process unless told, and 0 turns the cache off", () => {
    expect(loadConfig({}).responseCacheMaxBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ RESPONSE_CACHE_MAX_BYTES: "0" }).responseCacheMaxBytes).toBe(0);
    expect(loadConfig({ RESPONSE_CACHE_MAX_BYTES: "1048576" }).responseCacheMaxBytes).toBe(1048576);
    expect(configProblems({ RESPONSE_CACHE_MAX_BYTES: "lots" })).toEqual([
      "RESPONSE_CACHE_MAX_BYTES: must be a number of bytes",
    ]);
    expect(configProblems({ RESPONSE_CACHE_MAX_BYTES: "-1" })).toEqual([
      "RESPONSE_CACHE_MAX_BYTES: must be 0 (off) to 4294967296",
    ]);
  });

  it("stops a deployment that still sets a renamed variable, naming the new one", () => {
    expect(configProblems({ GRAPHQL_MAX_CONCURRENT_EXPENSIVE: "4" })).toEqual([
      "GRAPHQL_MAX_CONCURRENT_EXPENSIVE: renamed to MAX_CONCURRENT_EXPENSIVE_PER_KEY, which now bounds REST's large pages too; set that instead",
    ]);
  });

  it("refuses several processes on the embedded database, which one process owns", () => {
    expect(configProblems({ WEB_CONCURRENCY: "2" })).toEqual([
      "WEB_CONCURRENCY: the embedded database (PGlite) serves one process; use 1, or PostgreSQL for more",
    ]);
    expect(loadConfig({ WEB_CONCURRENCY: "4", DATABASE_URL: "postgres://db/api" }).webConcurrency).toBe(4);
  });

  it("compresses answers unless COMPRESSION=false, and refuses a value that is not a flag", () => {
    expect(loadConfig({}).compression).toBe(true);
    expect(loadConfig({ COMPRESSION: "false" }).compression).toBe(false);
    expect(configProblems({ COMPRESSION: "gzip" })).toEqual(["COMPRESSION: must be true or false"]);
  });

  it("prepares the statement every request sends unless DATABASE_NAMED_STATEMENTS=false", () => {
    expect(loadConfig({}).databaseNamedStatements).toBe(true);
    expect(loadConfig({ DATABASE_NAMED_STATEMENTS: "false" }).databaseNamedStatements).toBe(false);
  });

  it("opens every database pool with the table's DATABASE_* pool settings, defaults included", () => {
    expect(poolOptions(loadConfig({}))).toEqual({
      poolSize: 10,
      namedStatements: true,
      idleTimeoutMs: 10_000,
      transactionWaitMs: 2_000,
    });
    const set = loadConfig({
      DATABASE_POOL_SIZE: "4",
      DATABASE_NAMED_STATEMENTS: "false",
      DATABASE_IDLE_TIMEOUT: "30s",
      DATABASE_TRANSACTION_WAIT: "500ms",
    });
    expect(poolOptions(set)).toEqual({
      poolSize: 4,
      namedStatements: false,
      idleTimeoutMs: 30_000,
      transactionWaitMs: 500,
    });
    expect(databaseOptions(set, { server: createLogger("silent") })).toMatchObject(poolOptions(set));
  });

  it("opens DATABASE_COMMAND_POOL_SIZE connections for a CLI command, never more than DATABASE_POOL_SIZE", () => {
    expect(databaseOptions(loadConfig({}), "command").poolSize).toBe(2);
    expect(databaseOptions(loadConfig({ DATABASE_COMMAND_POOL_SIZE: "5" }), "command").poolSize).toBe(5);
    expect(
      databaseOptions(loadConfig({ DATABASE_COMMAND_POOL_SIZE: "5", DATABASE_POOL_SIZE: "3" }), "command")
        .poolSize,
    ).toBe(3);
    expect(configProblems({ DATABASE_COMMAND_POOL_SIZE: "0" })).toHaveLength(1);
    expect(configProblems({ DATABASE_TRANSACTION_WAIT: "soon" })).toEqual([
      "DATABASE_TRANSACTION_WAIT: must be a duration such as 500ms, 10s, 5m, 2h or 30d",
    ]);
  });

  it("serves GraphiQL and introspection by default, with GraphQL limits that a normal query stays under", () => {
    expect(loadConfig({}).graphql).toEqual({
      graphiql: true,
      introspection: true,
      plannedReads: true,
      limits: { maxDepth: 12, maxAliases: 30, maxCost: 200_000, maxTokens: 2_000, maxDirectives: 50 },
      work: { timeoutMs: 15_000, expensiveCost: 20_000 },
      memory: {
        apqMaxDocuments: 1_000,
        apqMaxBytes: 8 * 1024 * 1024,
        documentCacheMaxBytes: 32 * 1024 * 1024,
      },
      maxSubscriptionsPerKey: 10,
      persistedDocuments: { manifest: new Map(), only: false },
    });
  });

  it("bounds each key's expensive work and how long an answer may take to be read", () => {
    expect(loadConfig({})).toMatchObject({
      responseWriteTimeoutMs: 30_000,
      maxConcurrentExpensivePerKey: 2,
      expensivePageSize: 200,
      maxSendingBytesPerKey: 32 * 1024 * 1024,
    });
    expect(
      loadConfig({
        RESPONSE_WRITE_TIMEOUT_MS: "5000",
        MAX_CONCURRENT_EXPENSIVE_PER_KEY: "2",
        EXPENSIVE_PAGE_SIZE: "100",
        MAX_SENDING_BYTES_PER_KEY: "1048576",
      }),
    ).toMatchObject({
      responseWriteTimeoutMs: 5_000,
      maxConcurrentExpensivePerKey: 2,
      expensivePageSize: 100,
      maxSendingBytesPerKey: 1024 * 1024,
    });
    expect(configProblems({ EXPENSIVE_PAGE_SIZE: "501" })).toEqual(["EXPENSIVE_PAGE_SIZE: must be 1 to 500"]);
  });

  it("switches GraphiQL and introspection off and sets every GraphQL limit from the environment", () => {
    const config = loadConfig({
      GRAPHIQL_ENABLED: "false",
      GRAPHQL_INTROSPECTION: "0",
      GRAPHQL_PLANNED_READS: "false",
      GRAPHQL_MAX_DEPTH: "5",
      GRAPHQL_MAX_ALIASES: "3",
      GRAPHQL_MAX_COST: "1000",
      GRAPHQL_MAX_TOKENS: "300",
      GRAPHQL_MAX_DIRECTIVES: "4",
      GRAPHQL_TIMEOUT_MS: "2500",
      GRAPHQL_EXPENSIVE_COST: "900",
      GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY: "3",
    });
    expect(config.graphql).toEqual({
      graphiql: false,
      introspection: false,
      plannedReads: false,
      limits: { maxDepth: 5, maxAliases: 3, maxCost: 1000, maxTokens: 300, maxDirectives: 4 },
      work: { timeoutMs: 2500, expensiveCost: 900 },
      memory: {
        apqMaxDocuments: 1_000,
        apqMaxBytes: 8 * 1024 * 1024,
        documentCacheMaxBytes: 32 * 1024 * 1024,
      },
      maxSubscriptionsPerKey: 3,
      persistedDocuments: { manifest: new Map(), only: false },
    });
  });

  it("names a bad GraphQL setting and why", () => {
    const problems = configProblems({
      GRAPHIQL_ENABLED: "sometimes",
      GRAPHQL_INTROSPECTION: "off-ish",
      GRAPHQL_MAX_DEPTH: "0",
      GRAPHQL_MAX_ALIASES: "many",
      GRAPHQL_MAX_COST: "1.5",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "GRAPHIQL_ENABLED: must be true or false",
        "GRAPHQL_INTROSPECTION: must be true or false",
        "GRAPHQL_MAX_DEPTH: must be at least 1",
        "GRAPHQL_MAX_ALIASES: must be a number",
        "GRAPHQL_MAX_COST: must be a whole number",
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it("builds links from PUBLIC_BASE_URL, by default http://localhost on PORT, and trusts no proxy unless told", () => {
    expect(loadConfig({ PORT: "8080" })).toMatchObject({
      publicBaseUrl: "http://localhost:8080",
      trustProxy: false,
      authFailuresPerMinute: 30,
      graphql: { maxSubscriptionsPerKey: 10 },
    });
    expect(
      loadConfig({
        PUBLIC_BASE_URL: "https://api.example.com/",
        TRUST_PROXY: "true",
        AUTH_FAILURES_PER_MINUTE: "5",
        GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY: "3",
      }),
    ).toMatchObject({
      publicBaseUrl: "https://api.example.com",
      trustProxy: true,
      authFailuresPerMinute: 5,
      graphql: { maxSubscriptionsPerKey: 3 },
    });
    expect(
      configProblems({ PUBLIC_BASE_URL: "https://api.example.com/v1", AUTH_FAILURES_PER_MINUTE: "0" }),
    ).toEqual([
      "PUBLIC_BASE_URL: must be an origin such as https://api.example.com, without a path",
      "AUTH_FAILURES_PER_MINUTE: must be at least 1",
    ]);
  });

  it("trims a trailing slash from APP_BASE_URL so order links have one slash", () => {
    expect(loadConfig({ APP_BASE_URL: "https://app.example.com/" }).appBaseUrl).toBe(
      "https://app.example.com",
    );
  });
});

describe("DATABASE_URL", () => {
  it("selects PGlite in a folder, in memory, or PostgreSQL", () => {
    expect(parseDatabaseUrl(undefined)).toMatchObject({ kind: "pglite", dataDir: "./.data/pglite" });
    expect(parseDatabaseUrl("pglite:/var/lib/buyer-api")).toMatchObject({
      kind: "pglite",
      dataDir: "/var/lib/buyer-api",
    });
    expect(parseDatabaseUrl("pglite:memory")).toMatchObject({ kind: "pglite", dataDir: null });
    expect(parseDatabaseUrl("postgres://u@db:5433/api")).toMatchObject({
      kind: "postgres",
      description: "PostgreSQL (db:5433/api)",
    });
    expect(parseDatabaseUrl("postgresql://u@db/api")).toMatchObject({ kind: "postgres" });
  });

  it("refuses an unknown scheme or an empty PGlite location with a clear message", () => {
    expect(() => parseDatabaseUrl("sqlite:./x.db")).toThrow(/scheme 'sqlite' is not supported/);
    expect(() => parseDatabaseUrl("pglite:")).toThrow(/needs a folder/);
  });
});

const POSTGRES = "postgres://buyer_api@db:5432/buyer_api";

// DATABASE_REPLICA_URLS and DATABASE_REPLICA_MAX_LAG: empty by default, and a
// bad value stops the start with one line that names the variable (and, for
// a URL, its place in the list rather than the URL, which may hold a password).
describe("replica configuration", () => {
  it("has no replicas by default, and a 5 s lag bound", () => {
    expect(DEFAULT_CONFIG.databaseReplicaUrls).toEqual([]);
    expect(DEFAULT_CONFIG.databaseReplicaMaxLagMs).toBe(5_000);
  });

  it("accepts a comma-separated list of postgres:// URLs", () => {
    expect(
      configProblems({
        DATABASE_URL: POSTGRES,
        DATABASE_REPLICA_URLS: " postgres://r1:5432/buyer_api, postgresql://u:secret@r2/buyer_api ,",
        DATABASE_REPLICA_MAX_LAG: "750ms",
      }),
    ).toEqual([]);
  });

  it("stops the start with one line for a malformed URL, naming its place and not its text", () => {
    const problems = configProblems({
      DATABASE_URL: POSTGRES,
      DATABASE_REPLICA_URLS: "postgres://r1:5432/buyer_api,mysql://u:hunter2@r2/db",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^DATABASE_REPLICA_URLS: .*item 2 is not a postgres:\/\/user@host:5432\/db URL/,
    );
    expect(problems[0]).not.toContain("hunter2");
  });

  it("refuses replicas of the embedded database, and a lag bound that is not a duration", () => {
    expect(
      configProblems({ DATABASE_URL: "pglite:memory", DATABASE_REPLICA_URLS: "postgres://r1/buyer_api" }),
    ).toEqual(["DATABASE_REPLICA_URLS: replicas need DATABASE_URL to be PostgreSQL, not PGlite"]);
    const [lag] = configProblems({ DATABASE_URL: POSTGRES, DATABASE_REPLICA_MAX_LAG: "5" });
    expect(lag).toMatch(/^DATABASE_REPLICA_MAX_LAG: /);
  });
});
