import type { AppConfig } from "../config.js";
import type { DatabaseOptions } from "../db/database.js";
import type { Logger } from "../logger.js";

/** How many connections a command of the CLI opens: it sends a few statements, one at a time. */
const COMMAND_POOL_SIZE = 2;

/**
 * The pools' settings (DATABASE_POOL_SIZE, DATABASE_NAMED_STATEMENTS): the
 * configuration table holds their defaults, and the database has none of its own.
 */
export function poolOptions(config: AppConfig): Pick<DatabaseOptions, "poolSize" | "namedStatements"> {
  return { poolSize: config.databasePoolSize, namedStatements: config.databaseNamedStatements };
}

/**
 * The configuration's DATABASE_* variables as the options the database is
 * opened with, for every process that opens it: a server (`npm start`,
 * `buyer-api demo --serve`) takes them all; a command of the CLI reads and
 * writes on the primary only, over a pool of its own size.
 */
export function databaseOptions(
  config: AppConfig,
  use: { server: Logger } | "command",
): DatabaseOptions & { migrateOnStart: boolean } {
  const pool = poolOptions(config);
  const shared = {
    migrateOnStart: config.migrateOnStart,
    namedStatements: pool.namedStatements,
    // PostgreSQL cancels a read's statement when GraphQL would stop waiting for it.
    readTimeoutMs: config.graphql.work.timeoutMs,
  };
  if (use === "command") return { ...shared, poolSize: Math.min(pool.poolSize, COMMAND_POOL_SIZE) };
  const logger = use.server;
  return {
    ...shared,
    poolSize: pool.poolSize,
    warn: (message) => logger.warn(message),
    replicas: {
      urls: config.databaseReplicaUrls,
      maxLagMs: config.databaseReplicaMaxLagMs,
      onChange: ({ name, state, reason }) =>
        state === "in_use"
          ? logger.info({ replica: name }, `replica ${name}: in use`)
          : logger.warn({ replica: name, state, reason }, `replica ${name}: not used (${reason})`),
    },
  };
}
