// An event whose data is over the documented size (a huge text written by
// SQL, outside the API) is delivered in its reduced form, signed like any
// other, and the feed shows the same: docs/reference/webhooks.md "Event size".
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { MAX_EVENT_DATA_BYTES } from "../../src/domain/webhook-events.js";
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
  data: Record<string, unknown>;
}

describe("events over the size limit", { timeout: 120_000 }, () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let bigOrderId: string;
  let smallOrderId: string;

  beforeAll(async () => {
    test = await createTestApp({ webhooks: config });
    buyer = await seedBuyer(test.database, "Oversized");
    [bigOrderId = "", smallOrderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-01-01T00:00:00Z") },
      { createdAt: new Date("2025-01-02T00:00:00Z") },
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

  /** The one delivered event about `orderId`, whatever its form. */
  async function deliveredAbout(orderId: string): Promise<{ event: Event; text: string; verified: boolean }> {
    worker.wake();
    let found: { event: Event; text: string; verified: boolean } | undefined;
    await vi.waitFor(
      () => {
        const matching = receiver.received.filter((message) => message.text.includes(orderId));
        expect(matching).toHaveLength(1);
        const [message] = matching;
        if (message) found = { event: message.body as Event, text: message.text, verified: message.verified };
      },
      { timeout: 30_000, interval: 50 },
    );
    return found as { event: Event; text: string; verified: boolean };
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
    expect((listed.body as Event).data).toEqual(event.data);
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
