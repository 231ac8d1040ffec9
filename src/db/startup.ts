import { type Database, type DatabaseOptions, openDatabase } from "./database.js";
import type { DatabaseTarget } from "./database-url.js";
import { migrateDatabase } from "./migrations.js";

/** At start: a database the configuration names that this process cannot reach or enter; the message says what to do. */
export class CannotOpenDatabaseError extends Error {}

/** Node's and PostgreSQL's codes for what stops a connection, each with the operator's fix. */
function unreachable(error: unknown, target: Extract<DatabaseTarget, { kind: "postgres" }>): string | null {
  const url = new URL(target.connectionString);
  const host = url.hostname || "localhost";
  const port = url.port || "5432";
  const user = decodeURIComponent(url.username) || "postgres";
  const name = decodeURIComponent(url.pathname.slice(1)) || user;
  const at = `${host}:${port}`;
  switch ((error as { code?: unknown } | null)?.code) {
    case "3D000":
      return `the database "${name}" does not exist on PostgreSQL at ${at}: create it with \`createdb -h ${host} -p ${port} -U ${user} ${name}\`, or fix DATABASE_URL`;
    case "ECONNREFUSED":
      return `cannot connect to PostgreSQL at ${at} (connection refused): is PostgreSQL running on ${at}? Start it, or fix DATABASE_URL`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `cannot connect to PostgreSQL at ${at} (no answer): is PostgreSQL running on ${at}, and does a firewall let this machine in? Or fix DATABASE_URL`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot connect to PostgreSQL: the host "${host}" of DATABASE_URL is not known here; fix DATABASE_URL`;
    case "28P01":
    case "28000":
      return `PostgreSQL at ${at} refused the user "${user}" (${error instanceof Error ? error.message : "authentication failed"}): fix the user or password in DATABASE_URL, or pg_hba.conf`;
    default:
      return null;
  }
}

/**
 * Opens the database and sends it one statement, so that a database that
 * cannot be reached is told at once, in one line that says what to do,
 * rather than by the first request or query that needs it.
 */
export async function openReachableDatabase(
  target: DatabaseTarget,
  options: DatabaseOptions,
): Promise<Database> {
  const database = await openDatabase(target, options);
  if (target.kind === "pglite") return database;
  try {
    await database.query("SELECT 1", []);
  } catch (error) {
    await database.close().catch(() => {});
    const problem = unreachable(error instanceof AggregateError ? (error.errors[0] ?? error) : error, target);
    throw problem ? new CannotOpenDatabaseError(problem, { cause: error }) : error;
  }
  return database;
}

/**
 * Opens the database and, on the embedded one (or when asked), applies pending
 * migrations. On PostgreSQL migrations are an operator's step by default, so
 * that many processes starting at once do not all try.
 */
export async function openDatabaseForUse(
  target: DatabaseTarget,
  { migrateOnStart, ...options }: DatabaseOptions & { migrateOnStart: boolean },
): Promise<Database> {
  const database = await openReachableDatabase(target, options);
  if (target.kind === "pglite" || migrateOnStart) {
    try {
      await migrateDatabase(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
