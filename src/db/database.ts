import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { lockDataDirectory } from "./data-directory-lock.js";
import type { DatabaseTarget } from "./database-url.js";
import { withExactJsonNumbers } from "./exact-json-numbers.js";
import { PrismaClient } from "./generated/prisma/client.js";
import { createNotificationListener } from "./notification-listener.js";
import {
  observeQueries,
  openPostgresReader,
  prismaOverPool,
  type Reader,
  selectRowsIn,
  sendStatement,
} from "./readers.js";
import {
  openReplicaSet,
  type ReadChoice,
  type ReadPosition,
  type ReplicaOptions,
  type ReplicaStatus,
} from "./replicas.js";
import { RowTextClient } from "./row-text-client.js";
import { pgliteConnection, postgresConnection, type SqlConnection } from "./sql-connection.js";

export interface DatabaseOptions {
  /** Called with every SQL statement sent (through Prisma or `query`) and its parameters as JSON; tests count queries with it. */
  onQuery?: (sql: string, params: string) => void;
  /**
   * Connections in each PostgreSQL pool of this process (DATABASE_POOL_SIZE).
   * The configuration table holds every default; nothing here has one of its own.
   */
  poolSize: number;
  /** A pooled PostgreSQL connection unused this long is closed (DATABASE_IDLE_TIMEOUT). */
  idleTimeoutMs: number;
  /**
   * How long a transaction waits for a connection to start before Prisma gives
   * up, which the API answers 503 `overloaded` (DATABASE_TRANSACTION_WAIT).
   */
  transactionWaitMs: number;
  /**
   * False: `query` never prepares a named statement, for a pooler that cannot
   * follow them (PgBouncer before 1.21 in transaction mode; DATABASE_NAMED_STATEMENTS).
   */
  namedStatements: boolean;
  /**
   * PostgreSQL cancels a statement of `reads` (and of a replica) that runs
   * longer; the server passes `GRAPHQL_TIMEOUT_MS`. Absent: reads run to their end.
   */
  readTimeoutMs?: number;
  /** Replicas reads may run on (PostgreSQL only); none by default. */
  replicas?: ReplicaOptions;
  /** Told of what works, but less well than configured: read connections a pooler took their settings from. */
  warn?: (message: string) => void;
  /** PGlite in memory only: start from this data folder (`dumpDataDir`'s archive) rather than an empty one. */
  startFrom?: Blob;
}

export interface Database {
  readonly target: DatabaseTarget;
  /** The primary, for writes and for what must see them at once (idempotency, the webhooks' queue, LISTEN/NOTIFY). */
  readonly prisma: PrismaClient;
  /**
   * The primary's read-only connections, each opened with the read timeout:
   * PostgreSQL cancels a statement that outlives it, at no cost per read.
   * PGlite, which cannot cancel a statement, reads through `prisma`.
   */
  readonly reads: Reader;
  /**
   * Where one request's reads run. Without a position (no API key) or
   * without replicas, both choices are `reads`.
   */
  readsFor(position: ReadPosition | null): ReadChoice;
  /** Each replica's state, for readiness and metrics; empty without replicas. */
  replicas(): readonly ReplicaStatus[];
  /** Reads served so far by `primary` and by each replica (by name); empty without replicas. */
  readsServed(): ReadonlyMap<string, number>;
  /** A connection for plain SQL: migrations, advisory locks. Release it when done. */
  connect(): Promise<SqlConnection>;
  /**
   * One statement with `$1`… parameters, for the statement every request runs
   * (the API key's admission): on PostgreSQL it goes straight to the pool that
   * Prisma shares, without the client's per-query work; on PGlite through
   * Prisma. With `name`, PostgreSQL parses and plans it once per connection
   * rather than on every call; one name must always mean one text
   * (docs/design/performance.md, "What performance rests on").
   */
  query<Row extends object>(text: string, values: readonly unknown[], name?: string): Promise<Row[]>;
  /** PGlite only: its data folder as an archive, which `startFrom` opens again (the tests' migrated start). */
  dumpDataDir?(): Promise<Blob>;
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

/** Opens the database `target` names (the configuration's DATABASE_URL, parsed once by the config table). */
export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions): Promise<Database> {
  return target.kind === "pglite" ? openPglite(target, options) : openPostgres(target, options);
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
    if (options.startFrom && target.dataDir) throw new Error("startFrom opens an in-memory PGlite only");
    pglite = await PGlite.create(target.dataDir ?? undefined, {
      extensions: { pg_trgm },
      ...(options.startFrom ? { loadDataDir: options.startFrom } : {}),
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({
    adapter: withExactJsonNumbers(new PrismaPGliteWithSavepoints(pglite)),
    log: options.onQuery ? [{ emit: "event", level: "query" }] : [],
    transactionOptions: { maxWait: options.transactionWaitMs },
  });
  observeQueries(prisma, options.onQuery);
  const query = <Row extends object>(text: string, values: readonly unknown[]) =>
    prisma.$queryRawUnsafe<Row[]>(text, ...values);
  // One process, one connection: no replica, and nothing to gain from a second client.
  const reads: Reader = {
    source: "primary",
    prisma,
    query,
    selectRows: (text, values) => selectRowsIn(prisma, text, values),
  };
  return {
    target,
    prisma,
    reads,
    readsFor: () => primaryOnly(reads),
    replicas: () => [],
    readsServed: () => new Map(),
    connect: async () => pgliteConnection(pglite),
    query,
    dumpDataDir: async () => pglite.dumpDataDir("none"),
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

/** Every read on the primary's read pool. */
function primaryOnly(reads: Reader): ReadChoice {
  return { reader: () => reads, failed: () => {} };
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
  const { poolSize, namedStatements, idleTimeoutMs, transactionWaitMs } = options;
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: poolSize,
    idleTimeoutMillis: idleTimeoutMs,
    Client: RowTextClient,
  });
  // An idle connection the server dropped: the next statement on it fails and reports it.
  pool.on("error", () => {});
  const prisma = prismaOverPool(pool, { onQuery: options.onQuery, transactionWaitMs });
  const query = <Row extends object>(text: string, values: readonly unknown[], name?: string) =>
    sendStatement(
      { onQuery: options.onQuery, namedStatements },
      text,
      values,
      name,
      async (named) =>
        (await pool.query<Row & pg.QueryResultRow>({ text, values: [...values], name: named })).rows,
    );
  const reads = await openPostgresReader({
    source: "primary",
    connectionString: target.connectionString,
    poolSize,
    idleTimeoutMs,
    transactionWaitMs,
    statementTimeoutMs: options.readTimeoutMs,
    namedStatements,
    onQuery: options.onQuery,
    warn: options.warn,
  });
  const replicaSet = options.replicas?.urls.length
    ? await openReplicaSet(options.replicas, {
        reads,
        poolSize,
        idleTimeoutMs,
        transactionWaitMs,
        statementTimeoutMs: options.readTimeoutMs,
        namedStatements,
        onQuery: options.onQuery,
        warn: options.warn,
      })
    : null;
  const notifications = createNotificationListener(target.connectionString);
  return {
    target,
    prisma,
    reads,
    readsFor: (position) => (replicaSet && position ? replicaSet.readsFor(position) : primaryOnly(reads)),
    replicas: () => replicaSet?.status() ?? [],
    readsServed: () => replicaSet?.readsServed() ?? new Map(),
    connect: () => postgresConnection(target.connectionString),
    query,
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
      await replicaSet?.close();
      await notifications.close();
      await reads.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
