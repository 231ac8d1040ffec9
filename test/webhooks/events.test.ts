// Events rendered from the change log: each write through the API becomes
// one event whose `object` is exactly what the REST single read answers,
// delivered to the buyer's subscribed endpoints and to no other buyer's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
import { createLogger } from "../../src/logger.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { graphqlData } from "../graphql/helpers.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL, callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const config: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  retryScheduleMs: [100],
  pollIntervalMs: 50,
};

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

describe("events from the change log", { timeout: 60_000 }, () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let otherReceiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let orderId: string;

  const createEndpoint = async (key: string, url: string, enabledEvents: string[]) =>
    (
      await graphqlData<{ createWebhookEndpoint: { secret: string; endpoint: { id: string } } }>(
        test.app,
        "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id } } }",
        { key, variables: { input: { url, enabledEvents } } },
      )
    ).createWebhookEndpoint;

  beforeAll(async () => {
    test = await createTestApp({ webhooks: config });
    buyer = await seedBuyer(test.database, "Evented");
    other = await seedBuyer(test.database, "Elsewhere");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
    ]);
    receiver = await startWebhookReceiver();
    otherReceiver = await startWebhookReceiver();
    receiver.setSecret((await createEndpoint(buyer.apiKey, receiver.url, ["*"])).secret);
    otherReceiver.setSecret((await createEndpoint(other.apiKey, otherReceiver.url, ["*"])).secret);
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
    await otherReceiver?.close();
    await test?.close();
  });

  /** The one delivered event of `type` about `id` (its `object.id`, or the tagged record's). */
  async function deliveredEvent(type: string, id: string): Promise<Event> {
    worker.wake();
    let found: Event | undefined;
    await vi.waitFor(
      () => {
        const matching = receiver.received
          .map((message) => message.body as Event)
          .filter(
            (event) => event.type === type && (event.data.object.id ?? event.data.object.taggable_id) === id,
          );
        expect(matching).toHaveLength(1);
        found = matching[0];
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(receiver.received.every((message) => message.verified)).toBe(true);
    return found as Event;
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
