// What one GraphQL operation may cost and how much work it may then do: the
// cost is priced from the page sizes the operation will really get (literal,
// variable or default `first`) before anything runs; a query is stopped at the
// timeout (its SQL cancelled on PostgreSQL); a key runs few expensive
// operations at once. How an operation is priced is in cost-pricing.test.ts.

import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type AppConfig, DEFAULT_GRAPHQL_WORK_BOUNDS, type GraphQLWorkBounds } from "../../src/config.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import type { SqlConnection } from "../../src/db/sql-connection.js";
import { operationCost } from "../../src/graphql/cost.js";
import { createLogger } from "../../src/logger.js";
import { schema } from "../../src/schema/index.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp, testConfig } from "../support/test-app.js";
import { onPostgres } from "../support/test-database.js";
import { graphql } from "./helpers.js";

/** Three levels of order pages, each sized by `$n` (issue 15's reproduction). */
const NESTED_BY_VARIABLE = `query ($n: Int) {
  orders(first: $n) { edges { node { id buyerProduct { id
    orders(first: $n) { edges { node { id approval { id
      orders(first: $n) { edges { node { id } } } } } } } } } } }
}`;

const readsOrders = (queries: string[]) => queries.filter((sql) => /\borders\b/.test(sql));

describe("GraphQL operation cost", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Priced");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const refusedForCost = async (query: string, variables?: Record<string, unknown>) => {
    harness.resetQueries();
    const response = await graphql(harness.app, query, { key: buyer.apiKey, variables });
    expect(response.data ?? null).toBeNull();
    expect(response.status).toBe(400);
    expect(response.errors?.map((error) => error.extensions?.code)).toEqual(["COST_LIMIT_EXCEEDED"]);
    // Refused before any resolver ran: no order was read.
    expect(readsOrders(harness.queries)).toEqual([]);
    return response.errors?.[0];
  };

  it("reports each operation's cost and the caller's remaining requests in extensions", async () => {
    const ask = async (first: number) => {
      const response = await harness.app.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
        body: JSON.stringify({
          query: `{ orders(first: ${first}) { edges { node { id orderReference } } } }`,
        }),
      });
      const body = (await response.json()) as { extensions?: Record<string, { [name: string]: number }> };
      return { body, remainingHeader: Number(response.headers.get("ratelimit-remaining")) };
    };
    await withinOneWindow();
    const small = await ask(2);
    const large = await ask(50);
    expect(small.body.extensions?.cost).toEqual({ requested: expect.any(Number), limit: 200_000 });
    // A bigger page costs more: the figure is the one the limit is checked against.
    expect(large.body.extensions?.cost?.requested).toBeGreaterThan(
      small.body.extensions?.cost?.requested ?? 0,
    );
    expect(small.body.extensions?.rateLimit).toEqual({
      limit: 100_000,
      remaining: small.remainingHeader,
      resetSeconds: expect.any(Number),
    });
    expect(large.body.extensions?.rateLimit?.remaining).toBe(small.remainingHeader - 1);
  });

  it("prices page sizes passed as variables, refusing nested pages before they run", async () => {
    const error = await refusedForCost(NESTED_BY_VARIABLE, { n: 50 });
    expect(error?.message).toMatch(/Query Cost limit of 200000 exceeded, found \d+/);
    expect(error?.extensions?.cost).toEqual({ requested: expect.any(Number), limit: 200_000 });
    const literal = NESTED_BY_VARIABLE.replace("($n: Int) ", "").replaceAll("$n", "50");
    await refusedForCost(literal);
    // The same shape with small pages runs.
    const small = await graphql(harness.app, NESTED_BY_VARIABLE, { key: buyer.apiKey, variables: { n: 2 } });
    expect(small.errors).toBeUndefined();
    expect(small.data).toMatchObject({ orders: { edges: [expect.anything()] } });
  });

  it("prices an omitted first at the default page size (100)", async () => {
    await refusedForCost(
      "{ orders { edges { node { buyerProduct { approvals { edges { node { orders { edges { node { id } } } } } } } } } } }",
    );
    const explicit = await graphql(
      harness.app,
      "{ orders(first: 5) { edges { node { buyerProduct { approvals(first: 5) { edges { node { orders(first: 5) { edges { node { id } } } } } } } } } } }",
      { key: buyer.apiKey },
    );
    expect(explicit.errors).toBeUndefined();
  });

  it("prices pages behind fragments, variables' defaults and @include", async () => {
    await refusedForCost(
      `query ($n: Int = 60, $deep: Boolean!) { ...Page }
       fragment Page on Query { orders(first: $n) { edges { node { ...Product } } } }
       fragment Product on Order { buyerProduct { orders(first: $n) { edges { node { approval {
         orders(first: $n) @include(if: $deep) { totalCount edges { node { id } } } } } } } } }`,
      { deep: true },
    );
  });

  it("prices one document sent again by the variables of each request", async () => {
    const document = `query ($n: Int = 3, $deep: Boolean = false) {
      orders(first: $n) { edges { node { id buyerProduct @include(if: $deep) { orders(first: $n) { edges { node { id } } } } } } }
    }`;
    const priceWith = async (variables?: Record<string, unknown>) => {
      const response = await harness.app.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
        body: JSON.stringify({ query: document, variables }),
      });
      const body = (await response.json()) as { extensions?: { cost?: { requested: number } } };
      return body.extensions?.cost?.requested;
    };
    const sent = [undefined, { n: 3 }, { n: null }, { n: 40 }, { n: 40, deep: true }, { n: 3 }, {}];
    const prices: (number | undefined)[] = [];
    for (const variables of sent) prices.push(await priceWith(variables));
    // Each as the document alone would be priced with those values, whichever was sent before it.
    const alone = sent.map((variables) => operationCost(schema, parse(document), undefined, variables));
    expect(prices).toEqual(alone.map((priced) => (priced.kind === "priced" ? priced.cost : undefined)));
    const [absent, three, explicitNull, forty, deep] = prices;
    expect(three).toBe(absent);
    expect(forty).toBeGreaterThan(three ?? 0);
    expect(deep).toBeGreaterThan(forty ?? 0);
    // null is not absent: the default page size (100) rather than the variable's default.
    expect(explicitNull).toBeGreaterThan(three ?? 0);
    expect(await refusedForCost(document, { n: 100, deep: true })).toBeDefined();
  });

  it("refuses whatever the client accepts with HTTP 400", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({ query: NESTED_BY_VARIABLE, variables: { n: 50 } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe("COST_LIMIT_EXCEEDED");
  });
});

describe.runIf(onPostgres)("GraphQL work bounds (PostgreSQL)", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let locker: SqlConnection | null = null;

  const appWith = (
    work: Partial<GraphQLWorkBounds>,
    database: Database = harness.database,
    expensive: Partial<
      Pick<AppConfig, "maxConcurrentExpensivePerKey" | "maxWaitingExpensivePerKey" | "maxRunningExpensive">
    > = {},
  ): App =>
    createApp({
      config: testConfig({
        graphql: { work: { ...DEFAULT_GRAPHQL_WORK_BOUNDS, ...work } },
        ...expensive,
      }),
      database,
      logger: createLogger("silent"),
    });

  /** Another session holds the orders table, so that any statement reading it waits: a slow query on demand. */
  const holdOrdersTable = async () => {
    locker = await harness.database.connect();
    await locker.exec("BEGIN; LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
  };
  const releaseOrdersTable = async () => {
    await locker?.exec("ROLLBACK");
    await locker?.release();
    locker = null;
  };
  /** Statements of ours waiting for the lock on orders. */
  const waitingForOrders = async () => {
    const probe = await harness.database.connect();
    try {
      const rows = await probe.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%orders%'`,
      );
      return rows[0]?.waiting ?? 0;
    } finally {
      await probe.release();
    }
  };
  const until = async (condition: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("condition not met in 5 s");
  };

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Bounded");
    other = await seedBuyer(harness.database, "Neighbour");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
  });
  afterAll(async () => {
    await releaseOrdersTable();
    await harness?.close();
  });

  it("stops a query at the timeout with TIMEOUT, and the database stops its statement too", async () => {
    // The server opens its read connections with GRAPHQL_TIMEOUT_MS as their statement_timeout.
    const timed = await openDatabase(parseDatabaseUrl(harness.database.url), {
      ...CONFIGURED_POOL,
      readTimeoutMs: 600,
    });
    const app = appWith({ timeoutMs: 600 }, timed);
    await holdOrdersTable();
    try {
      const started = performance.now();
      const response = await graphql(app, "{ orders { totalCount edges { node { id } } } }", {
        key: buyer.apiKey,
      });
      const elapsed = performance.now() - started;
      expect(response.errors?.map((error) => error.extensions?.code)).toContain("TIMEOUT");
      expect(response.errors?.[0]?.message).toMatch(/stopped after 600 ms/);
      expect(elapsed).toBeLessThan(5_000);
      // Cancelled by PostgreSQL, not abandoned: nothing is left waiting on the table.
      await until(async () => (await waitingForOrders()) === 0);
    } finally {
      await releaseOrdersTable();
    }
    // The pool is healthy afterwards.
    const after = await graphql(app, "{ orders { totalCount } }", { key: buyer.apiKey });
    expect(after.data).toEqual({ orders: { totalCount: 1 } });
    await timed.close();
  });

  it("caps concurrent expensive operations per API key with CONCURRENCY_LIMIT_EXCEEDED (HTTP 429)", async () => {
    const app = appWith({ timeoutMs: 10_000, expensiveCost: 100 }, harness.database, {
      maxConcurrentExpensivePerKey: 1,
      maxWaitingExpensivePerKey: 0,
      maxRunningExpensive: 2,
    });
    const expensive = "{ orders { totalCount edges { node { id orderStatus } } } }";
    await holdOrdersTable();
    let first: ReturnType<typeof graphql> | null = null;
    let neighbour: ReturnType<typeof graphql> | null = null;
    try {
      first = graphql(app, expensive, { key: buyer.apiKey });
      await until(async () => (await waitingForOrders()) === 1);
      const second = await graphql(app, expensive, { key: buyer.apiKey });
      expect(second.status).toBe(429);
      expect(second.headers.get("retry-after")).toBe("1");
      expect(second.errors?.map((error) => error.extensions?.code)).toEqual(["CONCURRENCY_LIMIT_EXCEEDED"]);
      // Cheap operations of the same key, and another key's expensive ones, are not held back.
      const cheap = await graphql(app, "{ viewer { buyer { id } } }", { key: buyer.apiKey });
      expect(cheap.errors).toBeUndefined();
      neighbour = graphql(app, expensive, { key: other.apiKey });
      await until(async () => (await waitingForOrders()) === 2);
    } finally {
      await releaseOrdersTable();
    }
    expect((await first)?.errors).toBeUndefined();
    expect((await neighbour)?.errors).toBeUndefined();
    // The slot is free again once the first has finished.
    const third = await graphql(app, expensive, { key: buyer.apiKey });
    expect(third.errors).toBeUndefined();
  });

  it("runs another key's expensive operation once the process's one turn is free, not beside it", async () => {
    const app = appWith({ timeoutMs: 10_000, expensiveCost: 100 }, harness.database, {
      maxRunningExpensive: 1,
    });
    const expensive = "{ orders { totalCount edges { node { id orderStatus } } } }";
    const waitingTurns = async () => {
      const text = await (await app.fetch("http://localhost/metrics")).text();
      return Number(/^expensive_work_waiting (\S+)/m.exec(text)?.[1]);
    };
    await holdOrdersTable();
    let first: ReturnType<typeof graphql> | null = null;
    let neighbour: ReturnType<typeof graphql> | null = null;
    try {
      first = graphql(app, expensive, { key: buyer.apiKey });
      await until(async () => (await waitingForOrders()) === 1);
      neighbour = graphql(app, expensive, { key: other.apiKey });
      await until(async () => (await waitingTurns()) === 1);
      // The neighbour waits for its turn, not at the database beside the first.
      expect(await waitingForOrders()).toBe(1);
      const cheap = await graphql(app, "{ viewer { buyer { id } } }", { key: other.apiKey });
      expect(cheap.errors).toBeUndefined();
    } finally {
      await releaseOrdersTable();
    }
    expect((await first)?.errors).toBeUndefined();
    expect((await neighbour)?.errors).toBeUndefined();
    expect(await waitingTurns()).toBe(0);
  });
});
