import type { AppConfig } from "../config.js";
import type { DatabaseOptions } from "../db/database.js";
import type { Logger } from "../logger.js";

export type PoolOptions = Pick<
  DatabaseOptions,
  "poolSize" | "namedStatements" | "idleTimeoutMs" | "transactionWaitMs"
>;

/**
 * The pools' settings (DATABASE_POOL_SIZE, DATABASE_NAMED_STATEMENTS,
 * DATABASE_IDLE_TIMEOUT, DATABASE_TRANSACTION_WAIT): the configuration table
 * holds their defaults, and the database has none of its own.
 */
export function poolOptions(config: AppConfig): PoolOptions {
  return {
    poolSize: config.databasePoolSize,
    namedStatements: config.databaseNamedStatements,
    idleTimeoutMs: config.databaseIdleTimeoutMs,
    transactionWaitMs: config.databaseTransactionWaitMs,
  };
}

/**
 * The configuration's DATABASE_* variables as the options the database is
 * opened with, for every process that opens it: a server (`npm start`,
 * `buyer-api demo --serve`) takes them all; a command of the CLI reads and
 * writes on the primary only, over DATABASE_COMMAND_POOL_SIZE connections.
 */
export function databaseOptions(
  config: AppConfig,
  use: { server: Logger } | "command",
): DatabaseOptions & { migrateOnStart: boolean } {
  const pool = poolOptions(config);
  const shared = {
    ...pool,
    migrateOnStart: config.migrateOnStart,
    // PostgreSQL cancels a read's statement when GraphQL would stop waiting for it.
    readTimeoutMs: config.graphql.work.timeoutMs,
  };
  if (use === "command")
    return { ...shared, poolSize: Math.min(pool.poolSize, config.databaseCommandPoolSize) };
  const logger = use.server;
  return {
    ...shared,
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
