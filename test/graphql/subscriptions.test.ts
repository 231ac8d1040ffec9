// Live order updates over Server-Sent Events, carried by PostgreSQL
// LISTEN/NOTIFY: a change made through one server reaches subscribers of
// another server sharing the database, and only the buyer's own.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { createLogger } from "../../src/logger.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp, testConfig } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

interface Subscription {
  status: number;
  contentType: string | null;
  /** The payload of the next `next` event; waits for it. */
  next(): Promise<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>;
  close(): Promise<void>;
}

/** Subscribes the way a browser's EventSource-style client does: POST with `Accept: text/event-stream`. */
async function subscribe(
  app: App,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Subscription> {
  const response = await app.fetch(GRAPHQL, {
    method: "POST",
    headers: {
      accept: "text/event-stream",
      "content-type": "application/json",
      ...(key ? { "x-api-key": key } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = response.body;
  if (!body) throw new Error("the response has no body");
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    async next() {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end >= 0) {
          const lines = buffered.slice(0, end).split("\n");
          buffered = buffered.slice(end + 2);
          const event =
            lines
              .find((line) => line.startsWith("event:"))
              ?.slice(6)
              .trim() ?? "next";
          const data = lines
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("\n");
          if (event === "complete") throw new Error("the server completed the subscription");
          if (event === "next" && data) return JSON.parse(data);
          continue; // a keep-alive comment
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; unread: ${buffered}`);
        buffered += value;
      }
    },
    close: () => reader.cancel(),
  };
}

const ORDER_UPDATED = `subscription ($orderId: UUID, $status: OrderStatus) {
  orderUpdated(orderId: $orderId, status: $status) {
    order { id: databaseId orderStatus purchaseOrderReference }
    event { apiKey { prefix } changes { field from to } }
  }
}`;

describe("GraphQL subscription orderUpdated", () => {
  let harness: TestApp;
  /** A second database connection set, as a second server process would open. */
  let secondDatabase: Database | null = null;
  /** The server that changes orders, and the one that serves the subscribers. */
  let writer: App;
  let reader: App;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orders: string[];
  let otherOrder: string;
  const open: Subscription[] = [];

  const patch = async (orderId: string, body: Record<string, unknown>, key = buyer.apiKey) => {
    const response = await callApi(writer, "PATCH", `/orders/${orderId}`, { key, body });
    expect(response.status).toBe(200);
  };
  const watch = async (key: string | null, variables: Record<string, unknown> = {}) => {
    const subscription = await subscribe(reader, key, ORDER_UPDATED, variables);
    open.push(subscription);
    return subscription;
  };

  beforeAll(async () => {
    harness = await createTestApp();
    writer = harness.app;
    const url = harness.database.url;
    // PGlite lives in this process: two servers over it are two apps over the one database.
    const database = url.startsWith("postgres")
      ? await openDatabase(parseDatabaseUrl(url), { ...CONFIGURED_POOL, poolSize: 2 })
      : harness.database;
    if (database !== harness.database) secondDatabase = database;
    reader = createApp({
      config: testConfig(),
      database,
      logger: createLogger("silent"),
    });
    buyer = await seedBuyer(harness.database, "Watcher");
    other = await seedBuyer(harness.database, "Bystander");
    orders = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 4, 1)) },
      { createdAt: new Date(Date.UTC(2025, 4, 2)) },
    ]);
    [otherOrder = ""] = await seedOrders(harness.database, other, [
      { createdAt: new Date(Date.UTC(2025, 4, 3)) },
    ]);
  });
  afterAll(async () => {
    await Promise.all(open.map((subscription) => subscription.close().catch(() => {})));
    await reader?.dispose();
    await secondDatabase?.close();
    await harness?.close();
  });

  it("streams a change made through another server to a subscriber, with who changed what", async () => {
    const subscription = await watch(buyer.apiKey, { orderId: orders[0] });
    expect(subscription.status).toBe(200);
    expect(subscription.contentType).toContain("text/event-stream");

    await patch(orders[0] ?? "", { order_status: "order_placed", purchase_order_reference: "PO-LIVE" });

    const message = await subscription.next();
    expect(message.errors).toBeUndefined();
    expect(message.data).toEqual({
      orderUpdated: {
        order: { id: orders[0], orderStatus: "ORDER_PLACED", purchaseOrderReference: "PO-LIVE" },
        event: {
          apiKey: { prefix: buyer.apiKey.slice(0, 12) },
          changes: expect.arrayContaining([
            { field: "orderStatus", from: "QUOTE_SELECTED", to: "ORDER_PLACED" },
            { field: "purchaseOrderReference", from: null, to: "PO-LIVE" },
          ]),
        },
      },
    });
  });

  it("delivers only the subscriber's own buyer's changes, and only those its filters ask for", async () => {
    const everything = await watch(buyer.apiKey);
    const delivered = await watch(buyer.apiKey, { status: "DELIVERED" });
    const bystander = await watch(other.apiKey);

    await patch(orders[1] ?? "", { order_status: "shipped" });
    await patch(orders[1] ?? "", { order_status: "delivered" });
    await patch(otherOrder, { purchase_order_reference: "THEIRS" }, other.apiKey);

    const statusOf = (message: { data?: unknown }) =>
      (message.data as { orderUpdated: { order: { orderStatus: string } } }).orderUpdated.order.orderStatus;
    expect(statusOf(await everything.next())).toBe("SHIPPED");
    expect(statusOf(await everything.next())).toBe("DELIVERED");
    // Events arrive in commit order: had the filter let SHIPPED through, it would come first.
    expect(statusOf(await delivered.next())).toBe("DELIVERED");
    // The other buyer saw none of this buyer's changes before its own.
    const theirs = (await bystander.next()).data as {
      orderUpdated: { order: { id: string; purchaseOrderReference: string } };
    };
    expect(theirs.orderUpdated.order).toMatchObject({ id: otherOrder, purchaseOrderReference: "THEIRS" });
  });

  it("refuses a subscriber without a valid key, and an order of another buyer", async () => {
    const anonymous = await subscribe(reader, null, ORDER_UPDATED);
    open.push(anonymous);
    expect(anonymous.status).toBe(401);

    const foreign = await watch(buyer.apiKey, { orderId: otherOrder });
    const refusal = await foreign.next();
    expect(refusal.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
