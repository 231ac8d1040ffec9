import cluster, { type Worker } from "node:cluster";
import { openDatabase } from "../db/database.js";
import { migrateDatabase } from "../db/migrations.js";
import { createLogger } from "../logger.js";
import { serveClusterMetrics, workerClusterMetrics } from "./cluster-metrics.js";
import { loadConfigOrExit, startServer } from "./start.js";

/**
 * `npm start`: one server process, or WEB_CONCURRENCY workers sharing the
 * port (node:cluster) on PostgreSQL. The primary migrates once when asked,
 * restarts workers that die, collects the workers' metrics for GET /metrics,
 * and on SIGTERM lets every worker drain before exiting 0.
 */
export async function runServer(): Promise<void> {
  const config = loadConfigOrExit();
  if (config.webConcurrency === 1) {
    await startServer({ config });
    return;
  }
  if (!cluster.isPrimary) {
    await startServer({ config, clusterMetrics: workerClusterMetrics() });
    return;
  }
  const logger = createLogger(config.logLevel);
  if (config.migrateOnStart) {
    const database = await openDatabase(config.database);
    try {
      const report = await migrateDatabase(database);
      logger.info({ applied: report.applied }, "migrations applied");
    } finally {
      await database.close();
    }
  }
  serveClusterMetrics();
  let stopping = false;
  const fork = () => cluster.fork({ MIGRATE_ON_START: "false" });
  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info("all workers stopped");
        process.exit(0);
      }
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, "worker died; starting another");
    fork();
  });
  for (let index = 0; index < config.webConcurrency; index += 1) fork();
  logger.info({ workers: config.webConcurrency }, "started workers");

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping workers");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
