// What every command shares: the configuration, the database, and how a
// failure becomes one line on stderr and an exit code.
// The database modules (Prisma, PGlite, pg) load only when a command opens
// the database, so that help and a refused command answer without them.
import { databaseOptions } from "../config/database-options.js";
import { type AppConfig, ConfigError, loadConfig } from "../config.js";
import type { Database } from "../db/database.js";
import { isUuid } from "../domain/uuid.js";

/** A failure the operator can act on: printed as is, without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const EXIT_FAILURE = 1;
export const EXIT_BAD_CONFIG = 2;

/** The configured database, for a command of the CLI: on the primary, over a few connections. */
export async function openConfiguredDatabase(config: AppConfig): Promise<Database> {
  const { openDatabaseForUse } = await import("../db/startup.js");
  return openDatabaseForUse(config.database, databaseOptions(config, "command"));
}

/**
 * Runs `work` on the configured database and always closes it: PGlite's files
 * are only consistent once it is closed, and an open pool keeps Node running.
 */
export async function withDatabase<T>(
  work: (database: Database, config: AppConfig) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}

/** Ids typed by an operator are checked here, before the database rejects them less clearly. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value.trim())) throw new CliError(`${what} must be a UUID, got '${value}'`);
  return value.trim().toLowerCase();
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Node, PostgreSQL and Prisma codes for a database that cannot be reached or entered. */
const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "3D000",
  "28P01",
  "P1000",
  "P1001",
  "P1003",
]);

/** One line saying what went wrong, for errors that are not the operator's CliErrors. */
export function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const code = errorCode(error);
  if (code === "42P01" || code === "P2021") {
    return "the database has no tables yet: run `buyer-api db migrate` first (or set MIGRATE_ON_START=true)";
  }
  if (code !== undefined && CONNECTION_FAILURES.has(code)) {
    return `cannot connect to the database: ${innerMessage(error)}`;
  }
  return innerMessage(error);
}

function innerMessage(error: unknown): string {
  if (error instanceof AggregateError && error.message === "") {
    // Node reports a refused connection to every address of a host this way.
    const first: unknown = error.errors[0];
    return first instanceof Error ? first.message : (errorCode(error) ?? "unknown error");
  }
  if (error instanceof Error && error.name.startsWith("PrismaClient")) {
    // Prisma's message quotes the calling code first; the cause is its last line.
    const lines = error.message.split("\n").filter((line) => line.trim() !== "");
    return lines.at(-1)?.trim() ?? error.name;
  }
  if (error instanceof Error) return error.message.split("\n")[0] || error.name;
  return String(error);
}

/** The exit code for a failure, after telling the operator about it on stderr. */
export function reportFailure(error: unknown): number {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    return EXIT_BAD_CONFIG;
  }
  process.stderr.write(`error: ${describeError(error)}\n`);
  if (process.env.DEBUG === "1" && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
}
