import type { AddressInfo } from "node:net";
import { createApp, createEventRenderer } from "../app.js";
import { databaseOptions } from "../config/database-options.js";
import { type AppConfig, usesDevelopmentKey } from "../config.js";
import { DataDirectoryInUseError } from "../db/data-directory-lock.js";
import type { Database } from "../db/database.js";
import { CannotOpenDatabaseError, openDatabaseForUse } from "../db/startup.js";
import type { FairTurns } from "../http/fair-turns.js";
import { type ClusterMetrics, createMetrics } from "../http/metrics.js";
import { createLogger, type Logger } from "../logger.js";
import { startTracing } from "../telemetry/tracing.js";
import { startWebhookWorker } from "../webhooks/worker.js";
import { createHttpServer } from "./http-server.js";
import { listen, listenProblem, localUrl } from "./listen.js";
import { loadConfigOrExit, portOrExit } from "./preflight.js";

export { loadConfigOrExit, portOrExit };

/**
 * Exits with one line on stderr, the operator's fix, for what stops a start
 * that is no fault of the code: another process holds the PGlite folder,
 * PostgreSQL cannot be reached or entered. Other errors are left to throw.
 */
export function exitOnStartProblem(error: unknown): void {
  if (error instanceof DataDirectoryInUseError || error instanceof CannotOpenDatabaseError) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
}

/** The configured database, or one line and exit 1 (exitOnStartProblem). */
async function openOrExit(config: AppConfig, logger: Logger): Promise<Database> {
  try {
    return await openDatabaseForUse(config.database, databaseOptions(config, { server: logger }));
  } catch (error) {
    exitOnStartProblem(error);
    throw error;
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
    /** A cluster's worker: turns at expensive work kept by the primary. */
    expensiveTurns?: FairTurns;
    /** A cluster's worker: its own listening socket on the shared port (listen.ts). */
    reusePort?: boolean;
  } = {},
): Promise<{ port: number }> {
  const config = options.config ?? loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  // A port in use is told before the database opens; a cluster's primary has checked it already.
  if (!options.reusePort && config.port !== 0) await portOrExit({ port: config.port, host: config.host });
  // Before the database opens, so that Prisma reports its queries from the first one.
  const tracing = config.tracing ? await startTracing(config.tracing, logger) : undefined;
  const database = options.database ?? (await openOrExit(config, logger));
  const { demoApiKey, clusterMetrics, expensiveTurns } = options;
  // One set for the process: the app shows them, and the HTTP server and the webhook worker count into them.
  const metrics = createMetrics();
  const app = createApp({
    config,
    database,
    logger,
    tracing,
    demoApiKey,
    clusterMetrics,
    expensiveTurns,
    metrics,
  });
  const { server, drain } = createHttpServer(app, {
    logger,
    metrics,
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
        observeRendering: metrics.observeEventRendering,
        tracing,
        observeAttempt: metrics.observeWebhookAttempt,
      })
    : null;
  if (usesDevelopmentKey(config.webhooks)) {
    logger.warn(
      "WEBHOOK_SECRET_KEY is not set: webhook signing secrets are encrypted with the public development key",
    );
  }
  const url = localUrl(config.host, port);
  logger.info({ port, database: database.target.description, url }, `listening on ${url}`);

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
