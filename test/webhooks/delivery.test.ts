// Deliveries to a real receiver on localhost that verifies every signature
// with the `standardwebhooks` library: success, retries on the (shortened)
// schedule, an endpoint that keeps failing, and a receiver that never answers.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { createLogger } from "../../src/logger.js";
import { pruneEvents, queueDeliveries } from "../../src/services/webhook-queue.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const config: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  retryScheduleMs: [100, 200, 300],
  retryJitter: 0,
  deliveryTimeoutMs: 500,
  leaseMs: 5_000,
  pollIntervalMs: 50,
  disableFailingAfterMs: 60_000,
};

/** Waits for an effect of the worker: it runs beside the test. */
const eventually = (check: () => Promise<void>, options: { timeout?: number } = {}) =>
  vi.waitFor(check, { timeout: options.timeout ?? 5_000, interval: 25 });

describe("webhook delivery", { timeout: 30_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let endpointId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Receiver");
    receiver = await startWebhookReceiver();
    worker = await startWebhookWorker({ database, config, logger: createLogger("silent") });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await database?.close();
  });

  beforeEach(async () => {
    receiver.received.length = 0;
    endpointId = randomUUID();
    const secret = generateSigningSecret();
    receiver.setSecret(secret);
    await database.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        buyerId: buyer.buyerId,
        url: receiver.url,
        enabledEvents: ["*"],
        secretCiphertext: encryptSecret(secret, endpointId, config.secretKeys),
      },
    });
  });

  async function queueEvent(): Promise<{ eventId: string; deliveryId: string }> {
    const eventId = randomUUID();
    await database.prisma.webhookEvent.create({
      data: {
        id: eventId,
        buyerId: buyer.buyerId,
        type: "order.updated",
        data: JSON.stringify({
          object: { id: buyer.approvalId },
          previous_attributes: { order_status: "quote_selected" },
        }),
      },
    });
    const [deliveryId = ""] = await database.prisma.$transaction((tx) =>
      queueDeliveries(tx, { buyerId: buyer.buyerId, eventId, endpointIds: [endpointId] }),
    );
    worker.wake();
    return { eventId, deliveryId };
  }

  const delivery = (id: string) =>
    database.prisma.webhookDelivery.findUniqueOrThrow({
      where: { id },
      include: { tries: { orderBy: { attempt: "asc" } } },
    });

  it("posts the event once, signed: the receiver verifies it with standardwebhooks", async () => {
    const { eventId, deliveryId } = await queueEvent();
    await eventually(async () => expect((await delivery(deliveryId)).status).toBe("succeeded"));
    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    expect(message?.verified).toBe(true);
    expect(message?.id).toBe(eventId);
    expect(message?.body).toMatchObject({
      id: eventId,
      type: "order.updated",
      data: { previous_attributes: {} },
    });
    expect(message?.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
  });

  it("retries a 503 and a receiver that does not answer on the schedule, then delivers", async () => {
    receiver.plan(503, "hang");
    const { deliveryId } = await queueEvent();
    await eventually(async () => expect((await delivery(deliveryId)).status).toBe("succeeded"), {
      timeout: 10_000,
    });
    const { tries, attempts } = await delivery(deliveryId);
    expect(attempts).toBe(3);
    expect(tries.map((t) => [t.statusCode, t.error === null])).toEqual([
      [503, false],
      [null, false],
      [200, true],
    ]);
    expect(tries[1]?.error).toContain("no answer within 500 ms");
    expect(tries[0]?.nextRetryAt).not.toBeNull();
    expect(tries[2]?.nextRetryAt).toBeNull();
    expect(receiver.received.every((message) => message.verified)).toBe(true);
    expect(new Set(receiver.received.map((message) => message.id)).size).toBe(1);
  });

  it("gives up after the schedule, marks the endpoint failing, and a later success clears it", async () => {
    receiver.plan(500, 500, 500, 500);
    const { deliveryId } = await queueEvent();
    await eventually(async () => expect((await delivery(deliveryId)).status).toBe("failed"), {
      timeout: 10_000,
    });
    expect((await delivery(deliveryId)).attempts).toBe(4);
    const failing = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(failing.status).toBe("failing");
    expect(failing.failingSince).not.toBeNull();

    const next = await queueEvent();
    await eventually(async () => expect((await delivery(next.deliveryId)).status).toBe("succeeded"));
    const recovered = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(recovered).toMatchObject({ status: "enabled", failingSince: null });
  });

  it("disables an endpoint that has been failing longer than configured; its deliveries are cancelled", async () => {
    await database.prisma.webhookEndpoint.update({
      where: { id: endpointId },
      data: { status: "failing", failingSince: new Date(Date.now() - 120_000) },
    });
    receiver.plan(500);
    const { deliveryId } = await queueEvent();
    await eventually(async () =>
      expect(
        (await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).status,
      ).toBe("disabled"),
    );
    const endpoint = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint.disabledReason).toBe("failing");
    await eventually(async () => expect((await delivery(deliveryId)).status).toBe("cancelled"), {
      timeout: 5_000,
    });
    expect(receiver.received).toHaveLength(1);
  });

  it("never connects to a private address unless configuration allows it, checked at delivery time", async () => {
    const strict = await startWebhookWorker({
      database,
      config: { ...config, allowPrivateNetworks: false, concurrency: 1 },
      logger: createLogger("silent"),
    });
    await worker.stop();
    try {
      const { deliveryId } = await queueEvent();
      strict.wake();
      await eventually(async () => expect((await delivery(deliveryId)).attempts).toBeGreaterThan(0));
      const { tries } = await delivery(deliveryId);
      expect(tries[0]?.error).toContain("refused");
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.stop();
      worker = await startWebhookWorker({ database, config, logger: createLogger("silent") });
    }
  });

  it("prunes events past their retention, with their deliveries and attempts", async () => {
    const { eventId, deliveryId } = await queueEvent();
    await eventually(async () => expect((await delivery(deliveryId)).status).toBe("succeeded"));
    await database.prisma.webhookEvent.update({
      where: { id: eventId },
      data: { createdAt: new Date(Date.now() - 31 * 86_400_000) },
    });
    expect(await pruneEvents(database.prisma, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(
      1,
    );
    expect(await database.prisma.webhookEvent.count({ where: { id: eventId } })).toBe(0);
    expect(await database.prisma.webhookDeliveryAttempt.count({ where: { deliveryId } })).toBe(0);
  });
});
