// An event's `data.object` is, byte for byte, what `GET` of its record
// answered when the event was rendered: the same keys in the same order, and
// amounts with every digit (REST writes `numeric(20,6)` amounts exactly, past
// the 15 significant digits a floating-point number keeps). The feed, the
// single event read, GraphQL and the delivered body all carry those bytes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { GRAPHQL, graphqlData } from "../graphql/helpers.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL, callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { type ReceivedWebhook, startWebhookReceiver } from "../support/webhook-receiver.js";

const config: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  pollIntervalMs: 50,
};

// 20 significant digits, the most numeric(20,6) holds; a double keeps 15 to 17 of them.
const QUANTITY = "12345678901234.567891";
const LATER_QUANTITY = "98765432109876.543219";
// Stored with a trailing zero, which REST does not write: 10000000000000.00001.
const PRICE_PER_UOM = "10000000000000.000010";
const PRICE_TOTAL = "99999999999999.999999";

/** The text of `data.previous_attributes`, the last member of an event body. */
function previousAttributesText(eventText: string): string {
  const [, text = ""] = /"previous_attributes":(\{[^{}]*\})\}\}$/.exec(eventText) ?? [];
  return text;
}

interface DeliveredEvent {
  id: string;
  type: string;
  data: { object: { id: string } };
}

describe("event data is the record's GET body, byte for byte", { timeout: 60_000 }, () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let orderId: string;

  beforeAll(async () => {
    test = await createTestApp({ webhooks: config });
    buyer = await seedBuyer(test.database, "Exact Amounts");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
    ]);
    receiver = await startWebhookReceiver();
    const created = await graphqlData<{ createWebhookEndpoint: { secret: string } }>(
      test.app,
      "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }",
      { key: buyer.apiKey, variables: { input: { url: receiver.url, enabledEvents: ["order.updated"] } } },
    );
    receiver.setSecret(created.createWebhookEndpoint.secret);
    worker = await startWebhookWorker({
      database: test.database,
      config,
      logger: createLogger("silent"),
      render: createEventRenderer({
        config: { appBaseUrl: APP_BASE_URL, webhooks: config },
        database: test.database,
      }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await test?.close();
  });

  /** The delivery of the order's `order.updated` event that follows the first `seen` ones. */
  async function nextDelivery(seen: number): Promise<ReceivedWebhook> {
    worker.wake();
    let found: ReceivedWebhook | undefined;
    await vi.waitFor(
      () => {
        const deliveries = receiver.received.filter(
          (message) => (message.body as DeliveredEvent).data.object.id === orderId,
        );
        expect(deliveries).toHaveLength(seen + 1);
        found = deliveries[seen];
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(found?.verified).toBe(true);
    return found as ReceivedWebhook;
  }

  /** The raw text of `GET /orders/{id}`, as a client reads it. */
  async function readOrder(): Promise<string> {
    const read = await callApi(test.app, "GET", `/orders/${orderId}`, { key: buyer.apiKey });
    expect(read.status).toBe(200);
    return read.text;
  }

  /** `POST /graphql` for the event's data, as raw text. */
  async function graphqlEventText(id: string): Promise<string> {
    const response = await test.app.fetch(GRAPHQL, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({ query: "query($id: UUID!) { event(id: $id) { data } }", variables: { id } }),
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it("amounts of 20 significant digits, in the feed, the event read, GraphQL and the delivery", async () => {
    await test.database.prisma.order.update({
      where: { id: orderId },
      data: { quantity: QUANTITY, pricePerUom: PRICE_PER_UOM, priceTotal: PRICE_TOTAL },
    });
    const delivered = await nextDelivery(0);
    const order = await readOrder();
    expect(order).toContain('"quantity":12345678901234.567891,"price_per_uom":10000000000000.00001,');
    expect(order).toContain('"price_total":99999999999999.999999,');
    const eventId = delivered.id;

    // The delivered body: the object's bytes are the GET body's, then the earlier amounts, exact.
    expect(delivered.text).toContain(`"data":{"object":${order},"previous_attributes":{`);
    // Earlier amounts as REST wrote them (numeric(20,6) without its trailing zeros).
    const previous = previousAttributesText(delivered.text);
    for (const earlier of ['"quantity":4', '"price_per_uom":2.35', '"price_total":10340.5'])
      expect(previous).toMatch(new RegExp(`[{,]${earlier}[,}]`));
    // The feed and the single read, as raw response text.
    const feed = await callApi(test.app, "GET", "/events?type[]=order.updated", { key: buyer.apiKey });
    expect(feed.status).toBe(200);
    expect(feed.text).toContain(`"id":"${eventId}","type":"order.updated",`);
    expect(feed.text).toContain(`"data":{"object":${order},`);
    const single = await callApi(test.app, "GET", `/events/${eventId}`, { key: buyer.apiKey });
    expect(single.text).toBe(delivered.text);
    // GraphQL's `data` carries the same text.
    expect(await graphqlEventText(eventId)).toContain(`{"data":{"object":${order},`);
  });

  it("previous_attributes keeps an earlier amount's every digit", async () => {
    await test.database.prisma.order.update({ where: { id: orderId }, data: { quantity: LATER_QUANTITY } });
    const delivered = await nextDelivery(1);
    const order = await readOrder();
    expect(order).toContain('"quantity":98765432109876.543219,');
    expect(delivered.text).toContain(`"data":{"object":${order},"previous_attributes":{`);
    expect(previousAttributesText(delivered.text)).toMatch(/[{,]"quantity":12345678901234\.567891[,}]/);
    const single = await callApi(test.app, "GET", `/events/${delivered.id}`, { key: buyer.apiKey });
    expect(single.text).toBe(delivered.text);
  });
});
