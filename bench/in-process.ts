import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadPostGraphilePeer } from "./peers/postgraphile-peer.js";
import type { ProcessId } from "./scenarios.js";

type AppModule = typeof import("../src/app.js");
type ConfigModule = typeof import("../src/config.js");
type DatabaseModule = typeof import("../src/db/database.js");
type DatabaseUrlModule = typeof import("../src/db/database-url.js");
type LoggerModule = typeof import("../src/logger.js");
type PrismaPeerModule = typeof import("./peers/prisma-handler.js");
type SofaPeerModule = typeof import("./peers/sofa.js");

/** A statement sent, with its parameters as a JSON array (as Prisma logs them). */
export type QueryListener = (sql: string, params: string) => void;

export interface InProcessServer {
  port: number;
  close(): Promise<void>;
}

export interface InProcessOptions {
  /** Checkout whose code to load: this one's sources, another's build (dist/). */
  root: string;
  databaseUrl: string;
  appBaseUrl: string;
  onQuery: QueryListener;
}

/** This checkout, when the bench runs from its sources. */
const SOURCE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * This checkout's modules are the ones the bench already runs from source:
 * its scenarios read the REST routes, which build the schema, and a built
 * copy beside them would register the schema's Pothos plugins a second time.
 * Another checkout's come from its build.
 */
async function load<Module>(root: string, file: string): Promise<Module> {
  const built = path.join(root, "dist", file);
  return (await import(pathToFileURL(root === SOURCE_ROOT ? path.join(root, file) : built).href)) as Module;
}

/**
 * A server of the benchmark inside this process, from the same code
 * the measured processes run, with every statement reported to us.
 */
export async function startInProcess(
  id: Exclude<ProcessId, "floor">,
  options: InProcessOptions,
): Promise<InProcessServer> {
  const { root } = options;
  const { openDatabase } = await load<DatabaseModule>(root, "src/db/database.js");
  const { parseDatabaseUrl } = await load<DatabaseUrlModule>(root, "src/db/database-url.js");
  const { DEFAULT_CONFIG, loadConfig } = await load<ConfigModule>(root, "src/config.js");
  // Every statement, Prisma's and the admission's; a build from before parameters were passed gives none.
  const database = await openDatabase(parseDatabaseUrl(options.databaseUrl), {
    poolSize: DEFAULT_CONFIG.databasePoolSize,
    namedStatements: DEFAULT_CONFIG.databaseNamedStatements,
    idleTimeoutMs: DEFAULT_CONFIG.databaseIdleTimeoutMs,
    transactionWaitMs: DEFAULT_CONFIG.databaseTransactionWaitMs,
    onQuery: (sql: string, params?: string) => options.onQuery(sql, params ?? "[]"),
  });

  let listener: RequestListener;
  let closePeer = async () => {};
  if (id === "postgraphile") {
    const { createPostGraphileListener } = await loadPostGraphilePeer(root);
    const peer = await createPostGraphileListener({
      connectionString: options.databaseUrl,
      onQuery: options.onQuery,
    });
    listener = peer.listener;
    closePeer = () => peer.close();
  } else if (
    id === "gateway" ||
    id === "gateway-uncached" ||
    id === "gateway-executed" ||
    id === "candidate"
  ) {
    const { createApp } = await load<AppModule>(root, "src/app.js");
    const { createLogger } = await load<LoggerModule>(root, "src/logger.js");
    const config = loadConfig({
      DATABASE_URL: options.databaseUrl,
      APP_BASE_URL: options.appBaseUrl,
      RATE_LIMIT_PER_MINUTE: "1000000000",
      ...(id === "gateway" || id === "candidate" ? {} : { RESPONSE_CACHE_MAX_BYTES: "0" }),
      ...(id === "gateway-executed" ? { GRAPHQL_PLANNED_READS: "false" } : {}),
    });
    listener = createApp({ config, database, logger: createLogger("silent") });
  } else if (id === "prisma") {
    const { createPrismaListener } = await load<PrismaPeerModule>(root, "bench/peers/prisma-handler.js");
    listener = createPrismaListener({ database, appBaseUrl: options.appBaseUrl });
  } else {
    const { createSofaListener } = await load<SofaPeerModule>(root, "bench/peers/sofa.js");
    listener = createSofaListener({ database, appBaseUrl: options.appBaseUrl });
  }
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      await closeServer(server);
      await closePeer();
      await database.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
