import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "../app.js";
import { type AppConfig, ConfigError, loadConfig } from "../config.js";
import type { Database } from "../db/database.js";
import { openDatabaseForUse } from "../db/startup.js";
import type { ClusterMetrics } from "../http/metrics.js";
import { createLogger } from "../logger.js";
import { startTracing } from "../telemetry/tracing.js";
import { ResponseWithReasonPhrase } from "./reason-phrase.js";

/** How long in-flight requests get to finish after SIGTERM before the process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A request still on its way when the signal came arrives within this. */
const QUIET_PERIOD_MS = 250;
const ACCEPT_BACKLOG_MS = 100;

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
  } = {},
): Promise<{ port: number }> {
  const config = options.config ?? loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  // Before the database opens, so that Prisma reports its queries from the first one.
  const tracing = config.tracing ? await startTracing(config.tracing, logger) : undefined;
  const database =
    options.database ??
    (await openDatabaseForUse(config.database, { migrateOnStart: config.migrateOnStart }));
  const { demoApiKey, clusterMetrics } = options;
  const app = createApp({ config, database, logger, tracing, demoApiKey, clusterMetrics });
  let draining = false;
  let activeRequests = 0;
  let lastRequestAt = 0;
  const server = createServer({ ServerResponse: ResponseWithReasonPhrase }, (request, response) => {
    activeRequests += 1;
    lastRequestAt = Date.now();
    response.once("close", () => {
      activeRequests -= 1;
    });
    // While draining, tell keep-alive clients to open their next request elsewhere.
    if (draining) response.shouldKeepAlive = false;
    void app(request, response);
  });

  // A client that trickles its request in is cut off; a response may take as long as it needs (SSE).
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info(
    { port, database: database.target.description, url: `http://localhost:${port}` },
    `listening on http://localhost:${port}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    draining = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    // Subscription streams never finish by themselves: end them, so that
    // draining waits only for ordinary requests.
    await app.dispose();
    // Connections the kernel has taken but Node has not yet accepted would be
    // reset by closing the listener: give the event loop a turn to accept them.
    await new Promise((resolve) => setTimeout(resolve, ACCEPT_BACKLOG_MS));
    // server.close() would also drop connections whose request is still
    // arriving; stop listening without that, and close sockets once quiet.
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {};
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (Date.now() < deadline && (activeRequests > 0 || Date.now() - lastRequestAt < QUIET_PERIOD_MS)) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (activeRequests > 0)
      logger.warn({ activeRequests }, "grace period over: closing remaining connections");
    closeIdle();
    server.closeAllConnections();
    await closed;
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
