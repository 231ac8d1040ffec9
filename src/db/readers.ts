import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type ArrayRow, arrayRowsOf, queryArrayRows } from "./array-rows.js";
import { withExactJsonNumbers } from "./exact-json-numbers.js";
import { PrismaClient } from "./generated/prisma/client.js";
import { RowTextClient } from "./row-text-client.js";
import { inStatementSpan } from "./statement-span.js";

/** Called with every SQL statement sent and its parameters as JSON (DatabaseOptions.onQuery). */
export type QueryObserver = (sql: string, params: string) => void;

/**
 * Where a read runs: the primary's read-only pool, or a replica's. Its
 * connections refuse writes, and PostgreSQL itself cancels a statement that
 * outlives the read timeout, so a read costs no statement besides its own.
 */
export interface Reader {
  /** `primary`, or the replica's `host:port/database`. */
  readonly source: string;
  readonly prisma: PrismaClient;
  /** One statement with `$1`… parameters, as `Database.query` sends it. */
  query<Row extends object>(text: string, values: readonly unknown[], name?: string): Promise<Row[]>;
  /**
   * One select whose columns are all texts, named by position (`AS "0"`, …),
   * each row the array of its texts: on PostgreSQL as pg reads them, named
   * statements kept per connection as `query` keeps them; on PGlite through
   * Prisma (`selectRowsIn`).
   */
  selectRows(text: string, values: readonly (string | null)[], name?: string): Promise<ArrayRow[]>;
}

export interface PostgresReader extends Reader {
  /** A statement of the service's own (health checks), not reported to `onQuery`. */
  probe<Row extends object>(text: string): Promise<Row[]>;
  close(): Promise<void>;
}

export interface PostgresReaderOptions {
  source: string;
  connectionString: string;
  poolSize: number;
  /** A connection unused this long is closed. */
  idleTimeoutMs: number;
  /** How long a transaction of the pool's Prisma client waits for a connection to start. */
  transactionWaitMs: number;
  /** PostgreSQL cancels a statement after this long; absent, statements run to their end. */
  statementTimeoutMs?: number;
  /** A connection not had within this long fails the read (a replica that went away), rather than waiting. */
  connectionTimeoutMs?: number;
  namedStatements: boolean;
  onQuery?: QueryObserver;
}

/**
 * How this service's pools send a statement of their own: reported to
 * `onQuery`, as a span of the request, and named only where named
 * statements are on (`send` gets the name to use, or none).
 */
export function sendStatement<Result>(
  options: { onQuery?: QueryObserver | undefined; namedStatements: boolean },
  text: string,
  values: readonly unknown[],
  name: string | undefined,
  send: (name: string | undefined) => Promise<Result>,
): Promise<Result> {
  options.onQuery?.(text, JSON.stringify(values));
  return inStatementSpan(text, name, () => send(options.namedStatements ? name : undefined));
}

/**
 * `Reader.selectRows` on a Prisma client or its transaction: a read inside a
 * transaction sees that transaction's snapshot.
 */
export async function selectRowsIn(
  client: Pick<PrismaClient, "$queryRawUnsafe">,
  text: string,
  values: readonly unknown[],
): Promise<ArrayRow[]> {
  return arrayRowsOf(await client.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values));
}

/** A Prisma client over `pool` that reports its statements to `onQuery`. */
export function prismaOverPool(
  pool: pg.Pool,
  { onQuery, transactionWaitMs }: { onQuery: QueryObserver | undefined; transactionWaitMs: number },
): PrismaClient {
  const prisma = new PrismaClient({
    adapter: withExactJsonNumbers(new PrismaPg(pool)),
    log: onQuery ? [{ emit: "event", level: "query" }] : [],
    transactionOptions: { maxWait: transactionWaitMs },
  });
  observeQueries(prisma, onQuery);
  return prisma;
}

/** Reports every statement a Prisma client sends (its `query` log event) to `onQuery`. */
export function observeQueries(prisma: PrismaClient, onQuery: QueryObserver | undefined): void {
  if (!onQuery) return;
  (
    prisma as unknown as { $on(event: "query", cb: (e: { query: string; params: string }) => void): void }
  ).$on("query", (e) => onQuery(e.query, e.params));
}

/**
 * The settings every connection of a read pool opens with, as startup
 * parameters (`options=-c …`): no statement, and so no round trip, per read.
 * Options already in the URL are kept, in front of these. With
 * `genericPlans`, every statement is planned once per connection and its plan
 * kept: right for the planned reads' named statements, whose joins cost more
 * to plan than to run; wrong for Prisma's, whose searches need a plan for
 * their own values (PostgreSQL applies the setting to unnamed statements too).
 */
export function readConnectionConfig(
  connectionString: string,
  statementTimeoutMs: number | undefined,
  genericPlans = false,
): Pick<pg.PoolConfig, "connectionString" | "options"> {
  const url = new URL(connectionString);
  const given = url.searchParams.get("options");
  url.searchParams.delete("options");
  const settings = [
    "-c default_transaction_read_only=on",
    ...(genericPlans ? ["-c plan_cache_mode=force_generic_plan"] : []),
    ...(statementTimeoutMs === undefined ? [] : [`-c statement_timeout=${Math.trunc(statementTimeoutMs)}`]),
  ];
  return { connectionString: url.toString(), options: [given, ...settings].filter(Boolean).join(" ") };
}

/** A pooler that does not pass the settings on refuses the connection so (PgBouncer: `unsupported startup parameter: options`). */
const REFUSED_PARAMETERS = /unsupported startup parameter/i;

/**
 * A pool of read-only connections to one PostgreSQL server, the primary or a
 * replica. Its first connection checks that the settings arrived: a pooler
 * in front (PgBouncer) refuses startup parameters it does not track, or
 * drops them when told to ignore them. Refused, the pool connects without
 * them; either way `warn` says so once, and reads are then bounded by the
 * execution's own deadline and whatever `statement_timeout` the role has
 * (docs/reference/operations.md, "PgBouncer"). A server that does not answer yet is
 * checked no further: the pool connects when a read needs it.
 */
export async function openPostgresReader(
  options: PostgresReaderOptions & { warn?: (message: string) => void },
): Promise<PostgresReader> {
  const poolWith = (settings: boolean, genericPlans = false) => {
    const pool = new pg.Pool({
      ...(settings
        ? readConnectionConfig(options.connectionString, options.statementTimeoutMs, genericPlans)
        : { connectionString: options.connectionString }),
      max: options.poolSize,
      idleTimeoutMillis: options.idleTimeoutMs,
      Client: RowTextClient,
      ...(options.connectionTimeoutMs === undefined
        ? {}
        : { connectionTimeoutMillis: options.connectionTimeoutMs }),
    });
    // An idle connection the server dropped: the next statement on it fails and reports it.
    pool.on("error", () => {});
    return pool;
  };
  let settings = true;
  let pool = poolWith(settings);
  try {
    const [row] = (
      await pool.query<{ read_only: string }>(
        "SELECT current_setting('default_transaction_read_only') AS read_only",
      )
    ).rows;
    if (row?.read_only !== "on") {
      options.warn?.(
        `read connections to ${options.source} came without their settings (a pooler dropped them): PostgreSQL does not cancel reads past the read timeout unless the role's statement_timeout does`,
      );
    }
  } catch (error) {
    if (error instanceof Error && REFUSED_PARAMETERS.test(error.message)) {
      await pool.end();
      settings = false;
      pool = poolWith(settings);
      options.warn?.(
        `read connections to ${options.source} cannot carry statement_timeout and read-only (${error.message}): PostgreSQL does not cancel reads past the read timeout unless the role's statement_timeout does`,
      );
    }
  }
  const prisma = prismaOverPool(pool, {
    onQuery: options.onQuery,
    transactionWaitMs: options.transactionWaitMs,
  });
  // `query` sends the planned reads' named statements: on connections of their own
  // that keep each statement's plan. A pool connects only when a read needs it.
  const statements = poolWith(settings, true);
  return {
    source: options.source,
    prisma,
    query: <Row extends object>(text: string, values: readonly unknown[], name?: string) =>
      sendStatement(
        options,
        text,
        values,
        name,
        async (named) =>
          (await statements.query<Row & pg.QueryResultRow>({ text, values: [...values], name: named })).rows,
      ),
    selectRows: (text: string, values: readonly (string | null)[], name?: string) =>
      sendStatement(options, text, values, name, (named) => queryArrayRows(statements, text, values, named)),
    async probe<Row extends object>(text: string) {
      return (await pool.query<Row & pg.QueryResultRow>(text)).rows;
    },
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), statements.end()]);
    },
  };
}

/** `host:port/database` of a PostgreSQL URL: how logs, readiness and metrics name a server, without its password. */
export function serverName(connectionString: string): string {
  const url = new URL(connectionString);
  return `${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname}`;
}
