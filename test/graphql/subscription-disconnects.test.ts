// A client that goes away frees its subscription slot, whenever it goes: right after sending,
// while the server is still setting the subscription up, once the stream has begun, or after
// an event. Over a real socket, as clients disconnect.
import { type ClientRequest, createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

const MAX_PER_KEY = 3;

const ORDER_UPDATED = `subscription ($orderId: UUID) {
  orderUpdated(orderId: $orderId) { order { id: databaseId orderStatus } }
}`;

interface Opened {
  client: ClientRequest;
  response: Promise<IncomingMessage>;
}

describe("subscription slots of clients that disconnect", { timeout: 60_000 }, () => {
  let harness: TestApp;
  let server: Server;
  let origin: string;
  let buyer: SeededBuyer;
  let orderId: string;
  const clients: ClientRequest[] = [];

  /** POSTs a subscription on its own connection; the body is sent whole. */
  const open = (variables: Record<string, unknown> = {}): Opened => {
    const client = request(`${origin}/graphql`, {
      method: "POST",
      agent: false,
      headers: {
        accept: "text/event-stream",
        "content-type": "application/json",
        "x-api-key": buyer.apiKey,
      },
    });
    clients.push(client);
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      client.once("response", resolve);
      client.once("error", reject);
    });
    // A disconnect before the answer rejects `response`; callers that abort do not wait for it.
    response.catch(() => {});
    client.end(JSON.stringify({ query: ORDER_UPDATED, variables }));
    return { client, response };
  };

  /** The text of the stream up to and including its first `next` event. */
  const firstEvent = (response: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        if (/event: next\ndata: .*\n\n/.test(text)) resolve(text);
      });
      response.once("end", () => reject(new Error(`the stream ended: ${text}`)));
    });

  /** Opens as many subscriptions as the key may hold, then one more: what each answered first. */
  const fillTheCap = async (): Promise<{ statuses: number[]; opened: ClientRequest[] }> => {
    const statuses: number[] = [];
    const opened: ClientRequest[] = [];
    for (let index = 0; index <= MAX_PER_KEY; index++) {
      const { client, response } = open();
      const answer = await response;
      statuses.push(answer.statusCode ?? 0);
      if (answer.statusCode === 200) {
        // The slot is taken once the stream's first bytes are out; wait for them.
        await new Promise((resolve) => answer.once("data", resolve));
        opened.push(client);
      } else {
        answer.resume();
      }
    }
    return { statuses, opened };
  };

  /** Closes the given connections and waits until the key can hold its whole number again. */
  const closeAndWaitForFreeSlots = async (opened: ClientRequest[]) => {
    for (const client of opened) client.destroy();
    return eventually(async () => {
      const attempt = await fillTheCap();
      for (const client of attempt.opened) client.destroy();
      const expected = [...Array(MAX_PER_KEY).fill(200), 429];
      if (attempt.statuses.join() === expected.join()) return attempt.statuses;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return null;
    });
  };

  beforeAll(async () => {
    harness = await createTestApp({ graphql: { maxSubscriptionsPerKey: MAX_PER_KEY } });
    buyer = await seedBuyer(harness.database, "Fickle Client");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 4, 1)) },
    ]);
    server = createServer(harness.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await harness?.app.dispose();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await harness?.close();
  });

  it("holds the cap while subscriptions are open, and frees the slots when they close", async () => {
    const { statuses, opened } = await fillTheCap();
    expect(statuses).toEqual([...Array(MAX_PER_KEY).fill(200), 429]);
    expect(await closeAndWaitForFreeSlots(opened)).toEqual([...Array(MAX_PER_KEY).fill(200), 429]);
  });

  it("frees the slot of a client that disconnects at once, whatever the moment while it is set up", async () => {
    // Immediately after sending, and a little later each time: while the key and the order are
    // looked up and the server starts listening, before any answer has come back.
    for (let round = 0; round < 4 * MAX_PER_KEY; round++) {
      const { client } = open({ orderId });
      const delayMs = round % 4;
      if (delayMs === 0) client.destroy();
      else setTimeout(() => client.destroy(), delayMs);
    }
    for (let round = 0; round < 4 * MAX_PER_KEY; round++) {
      const { client } = open();
      await new Promise<void>((resolve) => setImmediate(resolve));
      client.destroy();
    }
    expect(await closeAndWaitForFreeSlots([])).toEqual([...Array(MAX_PER_KEY).fill(200), 429]);
  });

  it("frees the slot of a client that disconnects once the answer has begun, or after an event", async () => {
    const started: ClientRequest[] = [];
    for (let round = 0; round < 2 * MAX_PER_KEY; round++) {
      const { client, response } = open();
      const answer = await response;
      expect(answer.statusCode).toBe(200);
      // Gone before reading a byte of the stream.
      client.destroy();
      started.push(client);
    }
    const watching = await Promise.all(
      Array.from({ length: MAX_PER_KEY }, async () => {
        const { client, response } = open({ orderId });
        const answer = await response;
        expect(answer.statusCode).toBe(200);
        return { client, event: firstEvent(answer) };
      }),
    );
    // Every watcher's slot is then in use: the key is at its cap until they go.
    const changed = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      body: { purchase_order_reference: "PO-SEEN" },
    });
    expect(changed.status).toBe(200);
    for (const { event } of watching) expect(await event).toContain("orderUpdated");
    expect(await closeAndWaitForFreeSlots(watching.map(({ client }) => client))).toEqual([
      ...Array(MAX_PER_KEY).fill(200),
      429,
    ]);
  });
});
