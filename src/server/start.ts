import type { AddressInfo } from "node:net";
import { createApp, createEventRenderer } from "../app.js";
import { type AppConfig, ConfigError, loadConfig, usesDevelopmentKey } from "../config.js";
import { DataDirectoryInUseError } from "../db/data-directory-lock.js";
import type { Database } from "../db/database.js";
import { openDatabaseForUse } from "../db/startup.js";
import type { ClusterMetrics } from "../http/metrics.js";
import { createLogger, type Logger } from "../logger.js";
import { startTracing } from "../telemetry/tracing.js";
import { startWebhookWorker } from "../webhooks/worker.js";
import { createHttpServer } from "./http-server.js";
import { listen, listenProblem } from "./listen.js";

/** The configured database, or one line and exit 1 when another process holds its PGlite folder. */
async function openOrExit(config: AppConfig, logger: Logger): Promise<Database> {
  try {
    return await openDatabaseForUse(config.database, {
      migrateOnStart: config.migrateOnStart,
      poolSize: config.databasePoolSize,
      namedStatements: config.databaseNamedStatements,
      // PostgreSQL cancels a read's statement when GraphQL would stop waiting for it.
      readTimeoutMs: config.graphql.work.timeoutMs,
      replicas: {
        urls: config.databaseReplicaUrls,
        maxLagMs: config.databaseReplicaMaxLagMs,
        onChange: ({ name, state, reason }) =>
          state === "in_use"
            ? logger.info({ replica: name }, `replica ${name}: in use`)
            : logger.warn({ replica: name, state, reason }, `replica ${name}: not used (${reason})`),
      },
    });
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
}

/**
 * Starts the HTTP server from the environment's configuration and stops it
 * gracefully on SIGTERM/SIGINT: no new connections, in-flight requests
 * finish, the database closes, exit code 0.
 */
export async function startServer(
  options: {
    database?: Database;
    config?: AppConfig;
    demoApiKey?: string;
    clusterMetrics?: ClusterMetrics;
    /** A cluster's worker: its own listening socket on the shared port (listen.ts). */
    reusePort?: boolean;
  } = {},
): Promise<{ port: number }> {
  const config = options.config ?? loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  // Before the database opens, so that Prisma reports its queries from the first one.
  const tracing = config.tracing ? await startTracing(config.tracing, logger) : undefined;
  const database = options.database ?? (await openOrExit(config, logger));
  const { demoApiKey, clusterMetrics } = options;
  const app = createApp({ config, database, logger, tracing, demoApiKey, clusterMetrics });
  const { server, drain } = createHttpServer(app, {
    logger,
    requestTimeoutMs: config.requestTimeoutMs,
    writeTimeoutMs: config.responseWriteTimeoutMs,
  });
  const address = { port: config.port, host: config.host };
  try {
    await listen(server, address, options.reusePort);
  } catch (error) {
    const problem = listenProblem(error, address);
    if (!problem) throw error;
    console.error(problem);
    if (!options.database) await database.close();
    process.exit(1);
  }
  const { port } = server.address() as AddressInfo;
  const webhooks = config.webhooks.workerEnabled
    ? await startWebhookWorker({
        database,
        config: config.webhooks,
        logger,
        render: createEventRenderer({ config, database, logger }),
        observeRendering: app.observeEventRendering,
        tracing,
        observeAttempt: app.observeWebhookAttempt,
      })
    : null;
  if (usesDevelopmentKey(config.webhooks)) {
    logger.warn(
      "WEBHOOK_SECRET_KEY is not set: webhook signing secrets are encrypted with the public development key",
    );
  }
  logger.info(
    { port, database: database.target.description, url: `http://localhost:${port}` },
    `listening on http://localhost:${port}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    await drain();
    await webhooks?.stop();
    await database.close();
    await tracing?.shutdown();
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  return { port };
}

/** The configuration, or one line per bad variable on stderr and exit code 2. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(`config: ${problem}`);
      process.exit(2);
    }
    throw error;
  }
}
