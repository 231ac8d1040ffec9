import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { lockDataDirectory } from "./data-directory-lock.js";
import { type DatabaseTarget, parseDatabaseUrl } from "./database-url.js";
import { PrismaClient } from "./generated/prisma/client.js";
import { createNotificationListener } from "./notification-listener.js";
import { pgliteConnection, postgresConnection, type SqlConnection } from "./sql-connection.js";

export interface DatabaseOptions {
  /** Called with every SQL statement sent (through Prisma or `query`) and its parameters as JSON; tests count queries with it. */
  onQuery?: (sql: string, params: string) => void;
  /** Connections in the PostgreSQL pool of this process. */
  poolSize?: number;
  /**
   * False: `query` never prepares a named statement, for a pooler that cannot
   * follow them (PgBouncer before 1.21 in transaction mode).
   */
  namedStatements?: boolean;
}

export interface Database {
  readonly target: DatabaseTarget;
  readonly prisma: PrismaClient;
  /** A connection for plain SQL: migrations, advisory locks. Release it when done. */
  connect(): Promise<SqlConnection>;
  /**
   * One statement with `$1`… parameters, for the statement every request runs
   * (the API key's admission): on PostgreSQL it goes straight to the pool that
   * Prisma shares, without the client's per-query work; on PGlite through
   * Prisma. With `name`, PostgreSQL parses and plans it once per connection
   * rather than on every call; one name must always mean one text
   * (docs/performance.md, "What performance rests on").
   */
  query<Row extends object>(text: string, values: readonly unknown[], name?: string): Promise<Row[]>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Calls `onPayload` with every NOTIFY on `channel` from any connection to
   * this database, from when the promise resolves until the function it
   * resolves to is called. `close()` stops every listener.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export async function openDatabase(
  target: DatabaseTarget = parseDatabaseUrl(process.env.DATABASE_URL),
  options: DatabaseOptions = {},
): Promise<Database> {
  return target.kind === "pglite" ? openPglite(target, options) : openPostgres(target, options);
}

function prismaLogOptions(options: DatabaseOptions) {
  return options.onQuery ? ([{ emit: "event", level: "query" }] as const) : ([] as const);
}

function attachQueryListener(prisma: PrismaClient, options: DatabaseOptions): void {
  const onQuery = options.onQuery;
  if (!onQuery) return;
  (
    prisma as unknown as { $on(event: "query", cb: (e: { query: string; params: string }) => void): void }
  ).$on("query", (e) => onQuery(e.query, e.params));
}

async function openPglite(
  target: Extract<DatabaseTarget, { kind: "pglite" }>,
  options: DatabaseOptions,
): Promise<Database> {
  // Taken before PGlite reads the folder: a refused process has opened nothing.
  const lock = target.dataDir ? lockDataDirectory(target.dataDir) : null;
  let pglite: PGlite;
  try {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    pglite = await PGlite.create(target.dataDir ?? undefined, { extensions: { pg_trgm } });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({
    adapter: new PrismaPGliteWithSavepoints(pglite),
    log: [...prismaLogOptions(options)],
  });
  attachQueryListener(prisma, options);
  return {
    target,
    prisma,
    connect: async () => pgliteConnection(pglite),
    query: <Row extends object>(text: string, values: readonly unknown[]) =>
      prisma.$queryRawUnsafe<Row[]>(text, ...values),
    ping: async () => {
      try {
        await pglite.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async close() {
      await prisma.$disconnect();
      // The adapter's $disconnect leaves PGlite open; its files are only
      // consistent once PGlite itself is closed.
      if (!pglite.closed) await pglite.close();
      lock?.release();
    },
  };
}

type PGliteAdapter = Awaited<ReturnType<PrismaPGlite["connect"]>>;
type PGliteTransaction = Awaited<ReturnType<PGliteAdapter["startTransaction"]>>;

/**
 * PGlite's Prisma adapter lacks savepoints, which Prisma needs for a
 * transaction opened inside another (a keyed REST request runs a mutation,
 * which has its own transaction, inside the one that keeps its response);
 * PostgreSQL's adapter has them.
 */
class PrismaPGliteWithSavepoints extends PrismaPGlite {
  override async connect(): Promise<PGliteAdapter> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) =>
      withSavepoints(await startTransaction(isolationLevel));
    return adapter;
  }
}

/** Savepoints as newer versions of Prisma's driver-adapter interface name them. */
interface Savepoints {
  createSavepoint(name: string): Promise<void>;
  rollbackToSavepoint(name: string): Promise<void>;
  releaseSavepoint(name: string): Promise<void>;
}

function withSavepoints(transaction: PGliteTransaction): PGliteTransaction & Savepoints {
  // Prisma makes the names (prisma_sp_<n>); they are never client input.
  const run = async (sql: string) => {
    await transaction.executeRaw({ sql, args: [], argTypes: [] });
  };
  return Object.assign(transaction, {
    createSavepoint: (name: string) => run(`SAVEPOINT ${name}`),
    rollbackToSavepoint: (name: string) => run(`ROLLBACK TO SAVEPOINT ${name}`),
    releaseSavepoint: (name: string) => run(`RELEASE SAVEPOINT ${name}`),
  });
}

async function openPostgres(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  options: DatabaseOptions,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: target.connectionString, max: options.poolSize ?? 10 });
  const namedStatements = options.namedStatements ?? true;
  // An idle connection the server dropped: the next statement on it fails and reports it.
  pool.on("error", () => {});
  const adapter = new PrismaPg(pool);
  const prisma = new PrismaClient({ adapter, log: [...prismaLogOptions(options)] });
  attachQueryListener(prisma, options);
  const notifications = createNotificationListener(target.connectionString);
  return {
    target,
    prisma,
    connect: () => postgresConnection(target.connectionString),
    async query<Row extends object>(text: string, values: readonly unknown[], name?: string) {
      options.onQuery?.(text, JSON.stringify(values));
      const statement = { text, values: [...values], name: namedStatements ? name : undefined };
      return (await pool.query<Row & pg.QueryResultRow>(statement)).rows;
    },
    listen: (channel, onPayload) => notifications.listen(channel, onPayload),
    ping: async () => {
      try {
        await prisma.$queryRawUnsafe("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await notifications.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
