import cluster, { type Worker } from "node:cluster";
import { databaseOptions } from "../config/database-options.js";
import { migrateDatabase } from "../db/migrations.js";
import { openReachableDatabase } from "../db/startup.js";
import { expensiveTurnsBounds } from "../http/expensive-work.js";
import { createLogger } from "../logger.js";
import { serveClusterMetrics, workerClusterMetrics } from "./cluster-metrics.js";
import { serveClusterTurns, workerClusterTurns } from "./cluster-turns.js";
import { loadConfigOrExit, portOrExit } from "./preflight.js";
import { exitOnStartProblem, startServer } from "./start.js";

/** A worker tells the primary it is serving. */
const SERVING = "buyer-api:serving";
/** A worker that died before serving is started again after this, not at once. */
const RESTART_DELAY_MS = 1_000;
/** glibc malloc arenas per worker unless MALLOC_ARENA_MAX says otherwise (docs/reference/operations.md "Memory bounds"). */
const WORKER_MALLOC_ARENAS = "2";
const WORKER_MMAP_THRESHOLD = "131072";

/**
 * `npm start`: one server process, or WEB_CONCURRENCY workers sharing the
 * port on PostgreSQL. The primary migrates once when asked, restarts workers
 * that die, collects the workers' metrics for GET /metrics, keeps the host's
 * turns at expensive work (cluster-turns.ts), and on SIGTERM
 * lets every worker drain before exiting 0.
 *
 * Each worker listens on the port itself (SO_REUSEPORT, listen.ts) and the
 * kernel spreads connections over them. With node:cluster's round-robin the
 * primary accepts each connection and passes it on: one in that handoff to a
 * worker that dies is held open by the primary and never answered nor
 * closed. Here a dying worker's connections, even those not yet accepted,
 * are closed by the kernel, and the client can retry at once.
 */
export async function runServer(): Promise<void> {
  const config = loadConfigOrExit();
  if (config.webConcurrency === 1) {
    await startServer({ config });
    return;
  }
  if (!cluster.isPrimary) {
    await startServer({
      config,
      clusterMetrics: workerClusterMetrics(),
      expensiveTurns: workerClusterTurns(),
      reusePort: true,
    });
    process.send?.({ type: SERVING });
    return;
  }
  const logger = createLogger(config.logLevel);
  const address = { port: config.port, host: config.host };
  const port = await portOrExit(address);
  if (config.migrateOnStart) {
    const database = await openReachableDatabase(config.database, databaseOptions(config, "command")).catch(
      (error: unknown) => {
        exitOnStartProblem(error);
        throw error;
      },
    );
    try {
      const report = await migrateDatabase(database);
      logger.info({ applied: report.applied }, "migrations applied");
    } finally {
      await database.close();
    }
  }
  serveClusterMetrics();
  serveClusterTurns(expensiveTurnsBounds(config));
  let stopping = false;
  let exitCode = 0;
  const serving = new Set<number>();
  const fork = () =>
    cluster.fork({
      MIGRATE_ON_START: "false",
      PORT: String(port),
      // glibc gives each thread that allocates (the compression thread pool's) an arena of its own,
      // and memory freed into one is seldom given back: a few arenas keep RSS near what is in use.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? WORKER_MALLOC_ARENAS,
      // Large buffers (answers' bytes) mapped on their own go back to the system when freed,
      // rather than staying in the heap once glibc has raised its threshold past their size.
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? WORKER_MMAP_THRESHOLD,
    });
  cluster.on("message", (worker: Worker, message: { type?: unknown } | null) => {
    if (message?.type === SERVING) serving.add(worker.id);
  });
  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    const served = serving.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info("all workers stopped");
        process.exit(exitCode);
      }
      return;
    }
    if (!served && serving.size === 0) {
      // Nothing serves, and a new worker would most likely fail the same way
      // (its line on stderr says why): exit, for the supervisor to see.
      logger.error({ pid: worker.process.pid, code, signal }, "a worker failed to start and none is serving");
      exitCode = code || 1;
      stop("worker failed to start");
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, "worker died; starting another");
    if (served) fork();
    else setTimeout(() => !stopping && fork(), RESTART_DELAY_MS);
  });
  for (let index = 0; index < config.webConcurrency; index += 1) fork();
  logger.info({ workers: config.webConcurrency }, "started workers");

  function stop(reason: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "stopping workers");
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker?.process.kill("SIGTERM");
  }
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
