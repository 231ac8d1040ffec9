// What a delivery costs the database, and what the worker keeps between
// deliveries: a backlog to one endpoint is drained with about one statement
// per delivery (the write of its outcome, which also claims the next delivery
// with its event and endpoint; fewer when outcomes are written together); and
// a rotated secret signs from the next claim on, though the worker keeps
// endpoints' secrets decrypted.
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import {
  encryptSecret,
  generateSigningSecret,
  PREVIOUS_SECRET_OVERLAP_MS,
} from "../../src/domain/webhook-secrets.js";
import { createLogger } from "../../src/logger.js";
import { queueEventDeliveries } from "../../src/services/webhook-queue.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const config: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  retryScheduleMs: [100],
  retryJitter: 0,
  deliveryTimeoutMs: 2_000,
  leaseMs: 10_000,
  pollIntervalMs: 1_000,
};

/**
 * The worker's deletion of events past their retention, at most once an hour:
 * at its first look, which a slow machine may leave until the count has begun.
 */
const PRUNE = /^\s*DELETE FROM "public"\."webhook_events" WHERE/;

describe("the cost of a delivery", { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker | undefined;
  let counting = false;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({
      onQuery: (sql) => {
        if (counting) statements.push(sql);
      },
    });
    buyer = await seedBuyer(database, "Delivery Cost");
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.close();
  });

  async function startWorker(settings: Partial<WebhookConfig> = {}): Promise<void> {
    worker = await startWebhookWorker({
      database,
      config: { ...config, ...settings },
      logger: createLogger("silent"),
    });
  }

  async function createEndpoint(secret: string): Promise<string> {
    const endpointId = randomUUID();
    await database.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        buyerId: buyer.buyerId,
        url: receiver.url,
        enabledEvents: ["*"],
        secretCiphertext: encryptSecret(secret, endpointId, config.secretKeys),
      },
    });
    return endpointId;
  }

  async function queueEvents(endpointId: string, count: number): Promise<string[]> {
    const eventIds = Array.from({ length: count }, () => randomUUID());
    await database.prisma.webhookEvent.createMany({
      data: eventIds.map((id) => ({
        id,
        buyerId: buyer.buyerId,
        type: "order.updated",
        data: JSON.stringify({ object: { id } }),
      })),
    });
    await database.prisma.$transaction((tx) =>
      queueEventDeliveries(
        tx,
        eventIds.map((eventId) => ({ buyerId: buyer.buyerId, eventId, endpointIds: [endpointId] })),
      ),
    );
    worker?.wake();
    return eventIds;
  }

  /** Waits until `count` of the endpoint's deliveries have come to `status`. */
  async function deliveriesReach(endpointId: string, status: "succeeded" | "failed", count: number) {
    await vi.waitFor(
      async () =>
        expect(await database.prisma.webhookDelivery.count({ where: { endpointId, status } })).toBe(count),
      { timeout: 30_000, interval: 100 },
    );
  }

  it("drains a backlog with one statement per delivery, each delivered once and recorded", async () => {
    // No idle poll within the test, however slow the machine: what is counted is per delivery.
    await startWorker({ pollIntervalMs: 600_000 });
    const secret = generateSigningSecret();
    receiver.setSecret(secret);
    const endpointId = await createEndpoint(secret);
    receiver.received.length = 0;
    const deliveries = 60;
    counting = true;
    const eventIds = await queueEvents(endpointId, deliveries);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(deliveries), {
      timeout: 30_000,
      interval: 25,
    });
    // The last outcomes are written after their answers arrived.
    await deliveriesReach(endpointId, "succeeded", deliveries);
    counting = false;

    // Leaving out the test's own statements (the events' insert, the queueing transaction and the
    // waiting count), what remains is the worker's: claims that load what they claim, writes of
    // outcomes, the release of ran-out leases and the prune; no read or transaction per delivery.
    const kinds = statements
      .filter(
        (sql) =>
          !/^\s*(BEGIN|COMMIT)\s*$/i.test(sql) &&
          !/Implicit "COMMIT"/.test(sql) &&
          !sql.includes("pg_notify") &&
          !/^\s*INSERT INTO "public"\."webhook_(events|deliveries)"/.test(sql) &&
          !/SELECT COUNT\(\*\)/.test(sql),
      )
      .map((sql) => {
        if (/^\s*WITH\s+claimed AS \(/.test(sql)) return "claim";
        if (/^\s*WITH outcome AS \(/.test(sql)) return "write";
        if (/^\s*UPDATE webhook_deliveries SET status = 'pending'/.test(sql)) return "release";
        if (PRUNE.test(sql)) return "prune";
        return sql;
      });
    expect(kinds.filter((kind) => !["claim", "write", "release", "prune"].includes(kind))).toEqual([]);
    expect(kinds.filter((kind) => kind === "prune").length).toBeLessThanOrEqual(1);
    expect(kinds.filter((kind) => kind === "write").length).toBeLessThanOrEqual(deliveries);
    // The write of a success also claims the next delivery. Claims of their own come only from the
    // worker's first look, the looks the queueing causes (its wake and its notification) and the
    // last attempts to the endpoint, each finding nothing left to claim in its place.
    // Ran-out leases are looked for at most once per poll interval: here, once at most.
    expect(kinds.filter((kind) => kind === "release").length).toBeLessThanOrEqual(1);
    expect(kinds.filter((kind) => kind === "claim").length).toBeLessThanOrEqual(
      config.endpointConcurrency + 3,
    );
    expect(receiver.received.every((message) => message.verified)).toBe(true);
    expect(new Set(receiver.received.map((message) => message.id))).toEqual(new Set(eventIds));
    const attempts = await database.prisma.webhookDeliveryAttempt.findMany({
      where: { delivery: { endpointId } },
      select: { attempt: true, statusCode: true, error: true, nextRetryAt: true },
    });
    expect(attempts).toHaveLength(deliveries);
    expect(
      attempts.every(
        (attempt) =>
          attempt.attempt === 1 &&
          attempt.statusCode === 200 &&
          attempt.error === null &&
          attempt.nextRetryAt === null,
      ),
    ).toBe(true);
    const delivered = await database.prisma.webhookDelivery.findMany({ where: { endpointId } });
    expect(
      delivered.every(
        (delivery) =>
          delivery.attempts === 1 &&
          delivery.claimToken === null &&
          delivery.lastStatusCode === 200 &&
          delivery.succeededAt !== null,
      ),
    ).toBe(true);
  });

  it("writes failed attempts without a transaction each, and gives up as the schedule says", async () => {
    await startWorker();
    const secret = generateSigningSecret();
    receiver.setSecret(secret);
    receiver.answerAlways(500);
    try {
      const endpointId = await createEndpoint(secret);
      const deliveries = 30;
      statements.length = 0;
      counting = true;
      await queueEvents(endpointId, deliveries);
      // One retry in the schedule: two failed attempts each, then the delivery gives up.
      await deliveriesReach(endpointId, "failed", deliveries);
      counting = false;
      const attempts = await database.prisma.webhookDeliveryAttempt.findMany({
        where: { delivery: { endpointId } },
        select: { attempt: true, statusCode: true, nextRetryAt: true },
      });
      expect(attempts).toHaveLength(2 * deliveries);
      expect(attempts.every((attempt) => attempt.statusCode === 500)).toBe(true);
      expect(attempts.filter((attempt) => attempt.nextRetryAt === null)).toHaveLength(deliveries);
      const endpoint = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
      expect(endpoint.status).toBe("failing");
      // The worker's statements: claims, writes of outcomes, no transaction of its own per failure.
      const worker = statements.filter(
        (sql) =>
          !sql.includes("pg_notify") &&
          !/^\s*INSERT INTO "public"\."webhook_(events|deliveries)"/.test(sql) &&
          !/SELECT COUNT\(\*\)/.test(sql),
      );
      expect(worker.filter((sql) => PRUNE.test(sql)).length).toBeLessThanOrEqual(1);
      expect(worker.filter((sql) => /^\s*BEGIN\s*$/i.test(sql)).length).toBeLessThanOrEqual(2);
      // At most one write per attempt; besides them only the prune, and claims and lease releases,
      // whose number follows the idle polls while retries wait, and so the time the test takes.
      const writes = worker.filter((sql) => /^\s*WITH outcome AS \(/.test(sql));
      expect(writes.length).toBeLessThanOrEqual(2 * deliveries);
      expect(
        worker.filter(
          (sql) =>
            !/^\s*WITH outcome AS \(/.test(sql) &&
            !/^\s*WITH\s+claimed AS \(/.test(sql) &&
            !/^\s*UPDATE webhook_deliveries SET status = 'pending'/.test(sql) &&
            !/^\s*(BEGIN|COMMIT)\s*$/i.test(sql) &&
            !/Implicit "COMMIT"/.test(sql) &&
            !PRUNE.test(sql),
        ),
      ).toEqual([]);
    } finally {
      receiver.answerAlways(200);
    }
  });

  it("signs with both secrets from the first claim after a rotation, and a failing endpoint's success enables it", async () => {
    await startWorker();
    const first = generateSigningSecret();
    receiver.setSecret(first);
    const endpointId = await createEndpoint(first);
    receiver.received.length = 0;
    await queueEvents(endpointId, 1);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 10_000, interval: 25 });

    const second = generateSigningSecret();
    const endpoint = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    await database.prisma.webhookEndpoint.update({
      where: { id: endpointId },
      data: {
        secretCiphertext: encryptSecret(second, endpointId, config.secretKeys),
        previousSecretCiphertext: endpoint.secretCiphertext,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_OVERLAP_MS),
        status: "failing",
        failingSince: new Date(),
      },
    });
    receiver.setSecret(second);
    const [eventId] = await queueEvents(endpointId, 1);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 10_000, interval: 25 });
    const [, rotated] = receiver.received;
    expect(rotated?.id).toBe(eventId);
    expect(rotated?.verified).toBe(true);
    const headers = rotated?.headers as Record<string, string>;
    expect(String(headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => new Webhook(first).verify(rotated?.text ?? "", headers)).not.toThrow();
    await vi.waitFor(
      async () =>
        expect(
          await database.prisma.webhookEndpoint.findUniqueOrThrow({
            where: { id: endpointId },
            select: { status: true, failingSince: true },
          }),
        ).toEqual({ status: "enabled", failingSince: null }),
      { timeout: 10_000, interval: 50 },
    );
  });
});
