// Whether a failure means the database cannot be reached now, whichever layer
// reported it: the socket (pg), PostgreSQL ending sessions as it stops, Prisma
// (its codes, and its driver adapter's errors), or PGlite closed. Such a
// failure is no fault of the request: both APIs answer it 503 with Retry-After.

/** Seconds a client is asked to wait before retrying while the database cannot be reached. */
export const UNREACHABLE_RETRY_AFTER_SECONDS = 5;

/** What both APIs tell the client. */
export const UNREACHABLE_MESSAGE = `The database cannot be reached now; nothing was done. Retry after ${UNREACHABLE_RETRY_AFTER_SECONDS} s`;

/** The socket's errors: no route to the server, or the connection lost. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/**
 * PostgreSQL's SQLSTATEs: class 08 (connection exceptions), and a server
 * shutting down, crashed, or still starting (57P01, 57P02, 57P03).
 */
const UNREACHABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** Prisma's codes: server unreachable, timed out, connection closed. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);

/** Prisma's driver adapter's kinds for the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);

/** Messages of failures that carry no code: pg's lost connection and pool wait, and PGlite closed. */
const UNREACHABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|PGlite is closed)/;

interface Failure {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

function reportsUnreachable(failure: Failure): boolean {
  const codes = [failure.code, failure.originalCode].filter((code) => typeof code === "string");
  return (
    codes.some(
      (code) => SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code) || PRISMA_CODES.has(code),
    ) ||
    (typeof failure.kind === "string" && ADAPTER_KINDS.has(failure.kind)) ||
    (typeof failure.message === "string" && UNREACHABLE_MESSAGES.test(failure.message))
  );
}

/** Whether `error`, or what it wraps (its causes, Prisma's driver adapter error), says the database is unreachable. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const pending: unknown[] = [error];
  // Bounded: a cause chain can loop.
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const failure = pending.pop();
    if (typeof failure !== "object" || failure === null) continue;
    const { cause, meta } = failure as Failure;
    if (reportsUnreachable(failure as Failure)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
