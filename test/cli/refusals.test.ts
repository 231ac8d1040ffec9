// What the CLI refuses before it opens the database, run in process: a
// missing or malformed argument is told in one line on stderr with exit code
// 1 (a bad variable with 2), never a stack trace; and the one line a failure
// from the database becomes.
import { afterEach, describe, expect, it } from "vitest";
import { CliError, describeError, reportFailure } from "../../src/cli/context.js";
import { runCli } from "../../src/cli/program.js";

/** Runs `buyer-api ...args` in this process; what it wrote to stdout and stderr, and its exit code. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const written = { stdout: "", stderr: "" };
  const original = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (stream: "stdout" | "stderr") =>
    ((chunk: string | Uint8Array) => {
      written[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture("stdout");
  process.stderr.write = capture("stderr");
  try {
    const code = await runCli(["node", "buyer-api", ...args]);
    return { code, ...written };
  } finally {
    process.stdout.write = original.stdout;
    process.stderr.write = original.stderr;
  }
}

const BUYER = "00000000-0000-4000-8000-000000001001";

describe("a command refused before the database opens", () => {
  it.each([
    [["keys", "create", "--buyer", "acme"], "error: --buyer must be a UUID, got 'acme'"],
    [["keys", "list", "--buyer", "acme"], "error: --buyer must be a UUID, got 'acme'"],
    [["keys", "revoke", "42"], "error: the key id must be a UUID, got '42'"],
    [
      ["webhooks", "create", "--buyer", "acme", "--url", "https://example.com/hook"],
      "error: --buyer must be a UUID, got 'acme'",
    ],
    [["webhooks", "disable", "nope"], "error: the endpoint id must be a UUID, got 'nope'"],
    [["buyers", "create", "--name", "   "], "error: --name must be 1 to 255 characters"],
    [["buyers", "create", "--name", "n".repeat(256)], "error: --name must be 1 to 255 characters"],
    [
      ["keys", "create", "--buyer", BUYER, "--name", "k".repeat(256)],
      "error: --name must be at most 255 characters",
    ],
  ])("buyer-api %j says one line and exits 1", async (args, line) => {
    const run = await cli(...args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${line}\n`);
  });

  it.each([
    [["keys", "create"], "error: required option '--buyer <id>' not specified"],
    [["webhooks", "create", "--buyer", BUYER], "error: required option '--url <url>' not specified"],
    [["import"], "error: missing required argument 'file'"],
    [["frobnicate"], "error: unknown command 'frobnicate'"],
    [["keys", "create", "--buyer", BUYER, "--colour", "red"], "error: unknown option '--colour'"],
  ])("buyer-api %j names what is missing or unknown, then shows the usage, exit 1", async (args, line) => {
    const run = await cli(...args);
    expect(run.code).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(line);
    expect(run.stderr).toMatch(/^Usage: buyer-api/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("buyer-api keys create --help prints the usage on stdout and exits 0", async () => {
    const run = await cli("keys", "create", "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: buyer-api keys create \[options\]/);
    expect(run.stdout).toContain("--buyer <id>");
  });
});

describe("the one line a failure becomes", () => {
  const failure = (message: string, code: string) => Object.assign(new Error(message), { code });
  const debug = process.env.DEBUG;
  afterEach(() => {
    if (debug === undefined) delete process.env.DEBUG;
    else process.env.DEBUG = debug;
  });

  it("asks for the migrations on a database without tables", () => {
    for (const code of ["42P01", "P2021"])
      expect(describeError(failure('relation "buyers" does not exist', code))).toBe(
        "the database has no tables yet: run `buyer-api db migrate` first (or set MIGRATE_ON_START=true)",
      );
  });

  it("says the database cannot be reached, with the first address's reason when every address refused", () => {
    expect(describeError(failure("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(
      "cannot connect to the database: connect ECONNREFUSED 127.0.0.1:5432",
    );
    const everyAddress = Object.assign(
      new AggregateError(
        [new Error("connect ECONNREFUSED ::1:5432"), new Error("connect ECONNREFUSED 127.0.0.1:5432")],
        "",
      ),
      { code: "ECONNREFUSED" },
    );
    expect(describeError(everyAddress)).toBe("cannot connect to the database: connect ECONNREFUSED ::1:5432");
    expect(describeError(failure('database "nope" does not exist', "3D000"))).toBe(
      'cannot connect to the database: database "nope" does not exist',
    );
  });

  it("keeps the cause of a Prisma error, not the code that called it", () => {
    const prisma = new Error(
      "\nInvalid `prisma.buyer.findMany()` invocation in\n/app/src/cli/x.ts:12:3\n\n  Something underneath broke",
    );
    prisma.name = "PrismaClientUnknownRequestError";
    expect(describeError(prisma)).toBe("Something underneath broke");
  });

  it("is the first line of any other error, on stderr after 'error: ', with exit code 1 or the CliError's", async () => {
    delete process.env.DEBUG;
    const run = await captureFailure(new Error("first line\nsecond line"));
    expect(run).toEqual({ code: 1, stderr: "error: first line\n" });
    expect(await captureFailure(new CliError("not now", 3))).toEqual({ code: 3, stderr: "error: not now\n" });
  });

  it("adds the stack only with DEBUG=1", async () => {
    process.env.DEBUG = "1";
    const run = await captureFailure(new Error("boom"));
    expect(run.stderr).toMatch(/^error: boom\nError: boom\n\s+at /);
  });
});

async function captureFailure(error: unknown): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const original = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: reportFailure(error), stderr };
  } finally {
    process.stderr.write = original;
  }
}
