// A planned query's root fields (and `nodes`' types) are read side by side,
// as execution resolves them: a slow statement does not hold back the others.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SqlConnection } from "../../src/db/sql-connection.js";
import { type SeededBuyer, seedBuyer, seedBuyerProduct, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { onPostgres } from "../support/test-database.js";
import { graphql } from "./helpers.js";

const TABLES = ["orders", "buyer_products"] as const;

describe.runIf(onPostgres)("planned reads side by side (PostgreSQL)", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let productId: string;
  const lockers: SqlConnection[] = [];

  /** Other sessions hold each table, so that every statement reading one waits on its lock. */
  const holdTables = async () => {
    for (const table of TABLES) {
      const locker = await harness.database.connect();
      lockers.push(locker);
      await locker.exec(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    }
  };
  const releaseTables = async () => {
    for (const locker of lockers.splice(0)) {
      await locker.exec("ROLLBACK");
      await locker.release();
    }
  };
  /** The tables of the statements of ours that wait on a lock right now. */
  const tablesWaitedOn = async (): Promise<Set<string>> => {
    const probe = await harness.database.connect();
    try {
      const rows = await probe.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return new Set(TABLES.filter((table) => rows.some((row) => row.query.includes(`"${table}"`))));
    } finally {
      await probe.release();
    }
  };
  /** Waits for a state (not a time): 10 s at most, then fails. */
  const untilBothWait = async () => {
    for (let attempt = 0; attempt < 400; attempt++) {
      if ((await tablesWaitedOn()).size === TABLES.length) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("the statements did not wait side by side within 10 s");
  };

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Side by side");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2025, 3, 1)) }]);
    productId = await seedBuyerProduct(harness.database, buyer, "Glycerin");
  });
  afterEach(releaseTables);
  afterAll(async () => {
    await harness?.close();
  });

  /** Sends `query` while both tables are held, waits until a statement of each waits, then lets them run. */
  const sendWhileHeld = async (query: string, variables: Record<string, unknown> = {}) => {
    await holdTables();
    const answered = graphql(harness.app, query, { key: buyer.apiKey, variables });
    try {
      // Read one after another, only the first root's statement would be waiting.
      await untilBothWait();
    } finally {
      await releaseTables();
    }
    return answered;
  };

  it("runs each root field's statement at once, and answers them all", async () => {
    const response = await sendWhileHeld(`{
      orders(first: 1) { nodes { orderStatus } }
      buyerProducts(first: 1) { nodes { rawMaterialName } }
    }`);
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({
      orders: { nodes: [{ orderStatus: "QUOTE_SELECTED" }] },
      buyerProducts: { nodes: [{ rawMaterialName: "Glycerin" }] },
    });
  });

  it("runs the statement of each type `nodes` names at once", async () => {
    const listed = await graphql<{ orders: { nodes: { id: string }[] } }>(
      harness.app,
      "{ orders(first: 1) { nodes { id } } }",
      { key: buyer.apiKey },
    );
    const orderId = listed.data?.orders.nodes[0]?.id;
    const productGlobalId = btoa(`BuyerProduct:${productId}`);
    const response = await sendWhileHeld(
      "query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on BuyerProduct { rawMaterialName } } }",
      { ids: [orderId, productGlobalId] },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({
      nodes: [{ id: orderId }, { id: productGlobalId, rawMaterialName: "Glycerin" }],
    });
  });
});
