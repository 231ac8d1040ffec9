// DATABASE_TRANSACTION_WAIT reaches Prisma: with the pool's one connection held
// by a transaction, the next one waits the configured time for it, not Prisma's
// own default (2 s), and is then refused as overloaded (503 with Retry-After).
import { afterEach, describe, expect, it } from "vitest";
import { isOverloaded } from "../../src/schema/domain-errors.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

/** Past Prisma's default wait: a transaction still waiting then waits as configured. */
const PAST_PRISMA_DEFAULT_MS = 3_000;

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
});

/** Holds the pool's one connection in a transaction until `release` is called. */
async function holdTheConnection(opened: TestDatabase): Promise<{ release(): Promise<void> }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = () => {};
  const holding = new Promise<void>((resolve) => {
    started = resolve;
  });
  const transaction = opened.prisma.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe("SELECT 1");
      started();
      await held;
    },
    { timeout: 120_000 },
  );
  await holding;
  return {
    async release() {
      release();
      await transaction;
    },
  };
}

const nextTransaction = (opened: TestDatabase): Promise<unknown> =>
  opened.prisma
    .$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1"))
    .then(
      () => "started",
      (error: unknown) => error,
    );

describe("a transaction that cannot get a connection", () => {
  it("waits DATABASE_TRANSACTION_WAIT for it, longer than Prisma's default, and starts once it is free", async () => {
    database = await createTestDatabase({ poolSize: 1, transactionWaitMs: 60_000 });
    const holder = await holdTheConnection(database);
    const next = nextTransaction(database);
    const early = await Promise.race([
      next,
      new Promise((resolve) => setTimeout(resolve, PAST_PRISMA_DEFAULT_MS, "still waiting")),
    ]);
    expect(early).toBe("still waiting");
    await holder.release();
    expect(await next).toBe("started");
  });

  it("is refused as overloaded once the wait is over", async () => {
    database = await createTestDatabase({ poolSize: 1, transactionWaitMs: 100 });
    const holder = await holdTheConnection(database);
    const refusal = await nextTransaction(database);
    await holder.release();
    expect(isOverloaded(refusal)).toBe(true);
  });
});
