// Which failures mean the database cannot be reached now (answered 503 with
// Retry-After, no fault of the request), whichever layer reported them, and
// which are ordinary errors of a statement.
import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "../../src/db/unreachable.js";

/** An error as a layer reports it: a message and the fields it sets. */
const failure = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe("isDatabaseUnreachable", () => {
  it.each([
    ["a refused socket", failure("connect ECONNREFUSED 127.0.0.1:5432", { code: "ECONNREFUSED" })],
    ["a reset connection", failure("read ECONNRESET", { code: "ECONNRESET" })],
    ["an unknown host", failure("getaddrinfo ENOTFOUND db", { code: "ENOTFOUND" })],
    ["a connection exception (class 08)", failure("connection failure", { code: "08006" })],
    [
      "a server shutting down",
      failure("terminating connection due to administrator command", { code: "57P01" }),
    ],
    ["a server still starting", failure("the database system is starting up", { code: "57P03" })],
    ["Prisma's unreachable server", failure("Can't reach database server", { code: "P1001" })],
    ["Prisma's closed connection", failure("Server has closed the connection.", { code: "P1017" })],
    ["the driver adapter's kind", failure("adapter", { kind: "DatabaseNotReachable" })],
    ["pg's lost connection", failure("Connection terminated unexpectedly")],
    ["pg's pool wait", failure("timeout exceeded when trying to connect")],
    ["the embedded database closed", failure("PGlite is closed")],
  ])("%s is unreachable", (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("finds the reason in what an error wraps: its causes and Prisma's driver adapter error", () => {
    const wrapped = failure("Invalid `prisma.order.findMany()` invocation", {
      cause: failure("inner", { cause: failure("connect", { code: "ECONNREFUSED" }) }),
    });
    expect(isDatabaseUnreachable(wrapped)).toBe(true);
    const fromAdapter = failure("query failed", {
      code: "P2010",
      meta: { driverAdapterError: failure("adapter", { originalCode: "57P01" }) },
    });
    expect(isDatabaseUnreachable(fromAdapter)).toBe(true);
  });

  it.each([
    ["a unique violation", failure("duplicate key value", { code: "23505" })],
    ["a statement timeout", failure("canceling statement due to statement timeout", { code: "57014" })],
    ["a syntax error", failure("syntax error at or near", { code: "42601" })],
    ["Prisma's record not found", failure("No record was found", { code: "P2025" })],
    ["a plain error", new Error("something else")],
    ["a string", "ECONNREFUSED"],
    ["null", null],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it("ends on a cause chain that loops", () => {
    const first = failure("first");
    const second = failure("second", { cause: first });
    Object.assign(first, { cause: second });
    expect(isDatabaseUnreachable(first)).toBe(false);
  });
});
