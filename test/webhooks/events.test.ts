// Events rendered from the change log: each write through the API becomes
// one event whose `object` is exactly what the REST single read answers,
// delivered to the buyer's subscribed endpoints and to no other buyer's.
//
// On the same app and worker: an event's `data.object` is, byte for byte,
// what `GET` of its record answered when the event was rendered (the same keys
// in the same order, amounts with every digit past the 15 significant digits a
// floating-point number keeps), in the feed, the single event read, GraphQL
// and the delivered body; and an event whose data is over the documented size
// (a huge text written by SQL, outside the API) is delivered in its reduced
// form, signed like any other, the feed showing the same
// (docs/reference/webhooks.md "Event size"). Each part has buyers and a
// receiver of its own.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { MAX_EVENT_DATA_BYTES, WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
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
  retryScheduleMs: [100],
  pollIntervalMs: 50,
};

let test: TestApp;
let worker: WebhookWorker;
beforeAll(async () => {
  test = await createTestApp({ webhooks: config });
  worker = await startWebhookWorker({
    database: test.database,
    config,
    logger: createLogger("silent"),
    render: createEventRenderer({
      config: { appBaseUrl: APP_BASE_URL, webhooks: config },
      database: test.database,
    }),
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await test?.close();
});

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** A receiver of its own, subscribed to `enabledEvents` by an endpoint of the buyer's, that verifies with its secret. */
async function subscribedReceiver(buyer: SeededBuyer, enabledEvents: string[]): Promise<Receiver> {
  const receiver = await startWebhookReceiver();
  const created = await graphqlData<{ createWebhookEndpoint: { secret: string } }>(
    test.app,
    "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }",
    { key: buyer.apiKey, variables: { input: { url: receiver.url, enabledEvents } } },
  );
  receiver.setSecret(created.createWebhookEndpoint.secret);
  return receiver;
}

/** Wakes the worker and waits until the receiver holds exactly `count` messages that match; returns them. */
async function deliveredTo(
  receiver: Receiver,
  count: number,
  matches: (message: ReceivedWebhook) => boolean,
  timeout = 10_000,
): Promise<ReceivedWebhook[]> {
  worker.wake();
  let found: ReceivedWebhook[] = [];
  await vi.waitFor(
    () => {
      found = receiver.received.filter(matches);
      expect(found).toHaveLength(count);
    },
    { timeout, interval: 50 },
  );
  return found;
}

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

describe("events from the change log", { timeout: 60_000 }, () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let receiver: Receiver;
  let otherReceiver: Receiver;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "Evented");
    other = await seedBuyer(test.database, "Elsewhere");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
    ]);
    receiver = await subscribedReceiver(buyer, ["*"]);
    otherReceiver = await subscribedReceiver(other, ["*"]);
  });
  afterAll(async () => {
    await receiver?.close();
    await otherReceiver?.close();
  });

  /** The one delivered event of `type` about `id` (its `object.id`, or the tagged record's). */
  async function deliveredEvent(type: string, id: string): Promise<Event> {
    const [message] = await deliveredTo(receiver, 1, (message) => {
      const event = message.body as Event;
      return event.type === type && (event.data.object.id ?? event.data.object.taggable_id) === id;
    });
    expect(receiver.received.every((message) => message.verified)).toBe(true);
    return message?.body as Event;
  }

  it("order.updated: the object is GET /orders/{id}, previous_attributes the changed fields' earlier values", async () => {
    const patched = await callApi(test.app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      body: { order_status: "order_placed", purchase_order_reference: "PO-7" },
    });
    expect(patched.status).toBe(200);
    const event = await deliveredEvent("order.updated", orderId);
    const read = await callApi(test.app, "GET", `/orders/${orderId}`, { key: buyer.apiKey });
    expect(event.data.object).toEqual(read.body);
    expect(event.data.previous_attributes).toMatchObject({
      order_status: "quote_selected",
      purchase_order_reference: null,
      placed_at: null,
      updated_at: "2025-01-01T00:00:00.000Z",
    });

    const fromFeed = await callApi(test.app, "GET", `/events/${event.id}`, { key: buyer.apiKey });
    expect(fromFeed.body).toEqual(event);
  });

  it("an endpoint hears only of changes made once it exists: the order seeded before it is in the feed, not delivered", async () => {
    worker.wake();
    let eventId = "";
    await vi.waitFor(
      async () => {
        const feed = await callApi(test.app, "GET", "/events?type[]=order.created", { key: buyer.apiKey });
        const seeded = (feed.body as Event[]).find((event) => event.data.object.id === orderId);
        expect(seeded).toBeDefined();
        eventId = seeded?.id ?? "";
      },
      { timeout: 10_000, interval: 50 },
    );
    // An event and its deliveries are written in one transaction: none now means none ever.
    expect(await test.database.prisma.webhookDelivery.count({ where: { eventId } })).toBe(0);
    expect(receiver.received.map((message) => message.id)).not.toContain(eventId);
  });

  it("buyer_product.created carries auto_match, and the rest is GET /buyer_products/{id}", async () => {
    const created = await callApi(test.app, "POST", "/buyer_products", {
      key: buyer.apiKey,
      body: { raw_material_name: "Glycerol", measurement_unit: "kg", product_type: "Raw Material" },
    });
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    const event = await deliveredEvent("buyer_product.created", String(body.id));
    const { auto_match: autoMatch, ...object } = event.data.object;
    expect(autoMatch).toEqual(body.auto_match);
    const read = await callApi(test.app, "GET", `/buyer_products/${body.id}`, { key: buyer.apiKey });
    expect(object).toEqual(read.body);
    expect(event.data.previous_attributes).toBeUndefined();
  });

  it("supplier_user.created and tagging.created show what their POSTs answered", async () => {
    const user = await callApi(test.app, "POST", `/suppliers/${buyer.supplierId}/users`, {
      key: buyer.apiKey,
      body: { first_name: "Ada", last_name: "Byron", contact_email: `ada-${randomUUID()}@example.com` },
    });
    const userBody = user.body as Record<string, unknown>;
    expect((await deliveredEvent("supplier_user.created", String(userBody.id))).data.object).toEqual(
      userBody,
    );

    const tagging = await callApi(test.app, "POST", "/taggings", {
      key: buyer.apiKey,
      body: { taggable_id: orderId, tag_ids: buyer.tagIds.slice(0, 2) },
    });
    expect(tagging.status).toBe(201);
    const answered = tagging.body as { added_tag_ids: string[] };
    // The event lists the added tags by id; the POST answered them in the order they were sent.
    expect((await deliveredEvent("tagging.created", orderId)).data.object).toEqual({
      ...answered,
      added_tag_ids: [...answered.added_tag_ids].sort(),
    });
  });

  it("buyer_product_approval.updated when an approval changes (as imports change them)", async () => {
    await test.database.prisma.buyerProductApproval.update({
      where: { id: buyer.approvalId },
      data: { approvalStatus: "preferred", reference: "APP-9" },
    });
    const event = await deliveredEvent("buyer_product_approval.updated", buyer.approvalId);
    expect(event.data.object).toMatchObject({ approval_status: "preferred", reference: "APP-9" });
    expect(event.data.previous_attributes).toMatchObject({ approval_status: expect.any(String) });
    const read = await callApi(test.app, "GET", `/buyer_product_approvals/${buyer.approvalId}`, {
      key: buyer.apiKey,
    });
    expect(event.data.object).toEqual(read.body);
  });

  it("order.created and buyer_product_approval.created for records written as imports write them", async () => {
    const [created = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-02-01T00:00:00Z") },
    ]);
    const event = await deliveredEvent("order.created", created);
    expect(event.data.object).toEqual(
      (await callApi(test.app, "GET", `/orders/${created}`, { key: buyer.apiKey })).body,
    );
    expect(event.data.previous_attributes).toBeUndefined();

    const approvalId = randomUUID();
    await test.database.prisma.buyerProductApproval.create({
      data: {
        id: approvalId,
        buyerId: buyer.buyerId,
        buyerProductId: buyer.buyerProductId,
        supplierId: buyer.supplierId,
        approvalStatus: "pending",
      },
    });
    expect((await deliveredEvent("buyer_product_approval.created", approvalId)).data.object).toMatchObject({
      id: approvalId,
      approval_status: "pending",
    });
  });

  it("never crosses tenants: the other buyer's endpoint and feed see none of these events", async () => {
    const ids = new Set(receiver.received.map((message) => message.id));
    expect(otherReceiver.received.filter((message) => ids.has(message.id))).toEqual([]);
    const feed = await callApi(test.app, "GET", "/events?type[]=order.updated", { key: other.apiKey });
    expect(feed.body).toEqual([]);
    const foreign = await callApi(test.app, "GET", `/events/${[...ids][0]}`, { key: other.apiKey });
    expect(foreign.status).toBe(404);
  });

  it("reads back, from the feed, every event type as the OpenAPI document types it (callApi checks each)", async () => {
    const feed = await callApi(test.app, "GET", "/events?limit=500", { key: buyer.apiKey });
    expect(feed.status).toBe(200);
    const types = new Set((feed.body as Event[]).map((event) => event.type));
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});

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
  let buyer: SeededBuyer;
  let receiver: Receiver;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "Exact Amounts");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
    ]);
    receiver = await subscribedReceiver(buyer, ["order.updated"]);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The delivery of the order's `order.updated` event that follows the first `seen` ones. */
  async function nextDelivery(seen: number): Promise<ReceivedWebhook> {
    const deliveries = await deliveredTo(
      receiver,
      seen + 1,
      (message) => (message.body as DeliveredEvent).data.object.id === orderId,
    );
    const found = deliveries[seen];
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

interface SizedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

describe("events over the size limit", { timeout: 120_000 }, () => {
  let buyer: SeededBuyer;
  let receiver: Receiver;
  let bigOrderId: string;
  let smallOrderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "Oversized");
    [bigOrderId = "", smallOrderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
      { createdAt: new Date("2025-01-02T00:00:00Z") },
    ]);
    receiver = await subscribedReceiver(buyer, ["order.updated"]);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The one delivered event about `orderId`, whatever its form. */
  async function deliveredAbout(
    orderId: string,
  ): Promise<{ event: SizedEvent; text: string; verified: boolean }> {
    const [message] = await deliveredTo(receiver, 1, (message) => message.text.includes(orderId), 30_000);
    return {
      event: message?.body as SizedEvent,
      text: message?.text ?? "",
      verified: message?.verified ?? false,
    };
  }

  it("a text of 4 MiB written by SQL is delivered without the object, naming the record and where to read it", async () => {
    // As an operator's script would, outside the API: the change log still records it.
    await test.database.prisma.$executeRaw`
      UPDATE orders SET supplier_order_reference = repeat('x', 4 * 1024 * 1024) WHERE id = ${bigOrderId}::uuid`;
    const { event, text, verified } = await deliveredAbout(bigOrderId);
    expect(verified).toBe(true);
    expect(event.type).toBe("order.updated");
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_EVENT_DATA_BYTES);
    expect(event.data).toEqual({
      object_omitted: {
        reason: "too_large",
        size_bytes: expect.any(Number),
        max_bytes: MAX_EVENT_DATA_BYTES,
        id: bigOrderId,
        url: `/api/public/buyer/v1/orders/${bigOrderId}`,
      },
    });
    const omitted = event.data.object_omitted as { size_bytes: number; url: string };
    expect(omitted.size_bytes).toBeGreaterThan(4 * 1024 * 1024);
    // The feed shows the same reduced event, and the URL reads the whole record.
    const listed = await callApi(test.app, "GET", `/events/${event.id}`, { key: buyer.apiKey });
    expect(listed.status).toBe(200);
    expect((listed.body as SizedEvent).data).toEqual(event.data);
    const record = await callApi(test.app, `GET`, `http://localhost${omitted.url}`, { key: buyer.apiKey });
    expect(record.status).toBe(200);
    expect((record.body as { supplier_order_reference: string }).supplier_order_reference).toHaveLength(
      4 * 1024 * 1024,
    );
  });

  it("an event under the limit carries its object as before", async () => {
    await test.database.prisma.$executeRaw`
      UPDATE orders SET supplier_order_reference = repeat('y', 1000) WHERE id = ${smallOrderId}::uuid`;
    const { event, verified } = await deliveredAbout(smallOrderId);
    expect(verified).toBe(true);
    expect(event.data).toMatchObject({
      object: { id: smallOrderId, supplier_order_reference: "y".repeat(1000) },
      previous_attributes: { supplier_order_reference: null },
    });
  });
});
