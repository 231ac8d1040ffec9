// Deliveries to real receivers on loopback sockets, on one database. Every
// signature is verified with the `standardwebhooks` library: success, retries
// on the (shortened) schedule, an endpoint that keeps failing, and a receiver
// that never answers. How delivery is bounded: a receiver that never finishes
// its answer cannot keep connections open, connections are reused, one
// endpoint has a bounded number of attempts at once, and one buyer's hanging
// endpoints do not delay another buyer's deliveries (timeouts shortened
// through configuration; the concurrency limits are the defaults). Each part
// has buyers of its own, and the bounds leave no delivery due behind them.
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { createLogger, type Logger } from "../../src/logger.js";
import { claimDeliveries } from "../../src/services/webhook-claim.js";
import { pruneEvents, queueDeliveries } from "../../src/services/webhook-queue.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

const boundsConfig: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  // One retry, a minute later: no second attempt happens within a test.
  retryScheduleMs: [60_000],
  retryJitter: 0,
  leaseMs: 20_000,
  pollIntervalMs: 50,
};

const eventuallyWithin = (check: () => Promise<void>, timeout = 20_000) =>
  vi.waitFor(check, { timeout, interval: 50 });

describe("delivery bounds and isolation", { timeout: 60_000 }, () => {
  const receivers: Receiver[] = [];

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function receiver(): Promise<Receiver> {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  }

  async function createEndpoint(buyerId: string, at: Receiver): Promise<string> {
    const id = randomUUID();
    const secret = generateSigningSecret();
    at.setSecret(secret);
    await database.prisma.webhookEndpoint.create({
      data: {
        id,
        buyerId,
        url: at.url,
        enabledEvents: ["*"],
        secretCiphertext: encryptSecret(secret, id, boundsConfig.secretKeys),
      },
    });
    return id;
  }

  /** `count` events of the buyer, each queued to every endpoint; returns the deliveries' ids. */
  async function queueEvents(buyerId: string, endpointIds: string[], count: number): Promise<string[]> {
    const deliveryIds: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const eventId = randomUUID();
      await database.prisma.webhookEvent.create({
        data: {
          id: eventId,
          buyerId,
          type: "order.updated",
          data: JSON.stringify({ object: { id: randomUUID() } }),
        },
      });
      deliveryIds.push(
        ...(await database.prisma.$transaction((tx) =>
          queueDeliveries(tx, { buyerId, eventId, endpointIds }),
        )),
      );
    }
    return deliveryIds;
  }

  /** Each delivery's status, with its last error when it has one (so that a failure says why). */
  const statuses = async (ids: string[]) =>
    (
      await database.prisma.webhookDelivery.findMany({
        where: { id: { in: ids } },
        select: { status: true, lastError: true },
      })
    ).map((row) => (row.lastError ? `${row.status}: ${row.lastError}` : row.status));

  async function withWorker<T>(
    run: (worker: WebhookWorker) => Promise<T>,
    options: { settings?: Partial<WebhookConfig>; logger?: Logger } = {},
  ): Promise<T> {
    const worker = await startWebhookWorker({
      database,
      config: { ...boundsConfig, ...options.settings },
      logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    });
    try {
      return await run(worker);
    } finally {
      await worker.stop();
    }
  }

  it("closes the connection of a receiver that answers 2xx but never finishes its body, within the timeout", async () => {
    const { buyerId } = await seedBuyer(database, "Unfinished");
    const slow = await receiver();
    slow.answerAlways("unfinished body");
    const endpointId = await createEndpoint(buyerId, slow);
    // Long enough for the status line to arrive on a loaded machine, where the outcome is decided.
    const timeoutMs = 5_000;
    await withWorker(
      async (worker) => {
        const ids = await queueEvents(buyerId, [endpointId], boundsConfig.endpointConcurrency + 2);
        worker.wake();
        // The status decides the outcome: a 2xx is a success even when the body never ends. Two
        // rounds of attempts, each held open until its time is up.
        await eventuallyWithin(async () => {
          const attempts = await database.prisma.webhookDeliveryAttempt.findMany({
            where: { deliveryId: { in: ids } },
          });
          expect(attempts).toHaveLength(ids.length);
          const answered = attempts.filter((attempt) => attempt.statusCode !== null);
          expect(answered.length).toBeGreaterThan(0);
          expect(answered.every((attempt) => attempt.statusCode === 200 && attempt.error === null)).toBe(
            true,
          );
        }, 4 * timeoutMs);
        // Every connection is closed once its attempt's time is up: none is left open.
        await eventuallyWithin(async () => expect(await slow.openConnections()).toBe(0));
      },
      { settings: { deliveryTimeoutMs: timeoutMs } },
    );
  });

  it("reuses connections: many deliveries to one endpoint open a few connections, not one each", async () => {
    const { buyerId } = await seedBuyer(database, "Reused");
    const healthy = await receiver();
    const endpointId = await createEndpoint(buyerId, healthy);
    await withWorker(async (worker) => {
      const ids = await queueEvents(buyerId, [endpointId], 30);
      worker.wake();
      await eventuallyWithin(async () => expect(await statuses(ids)).toEqual(ids.map(() => "succeeded")));
      expect(healthy.received.every((message) => message.verified)).toBe(true);
      expect(healthy.connectionsAccepted()).toBeLessThanOrEqual(boundsConfig.endpointConcurrency);
    });
  });

  it("attempts at most the configured number of deliveries at once to one endpoint", async () => {
    const { buyerId } = await seedBuyer(database, "Bounded");
    const silent = await receiver();
    silent.answerAlways("hang");
    const endpointId = await createEndpoint(buyerId, silent);
    const bound = boundsConfig.endpointConcurrency;
    // Attempts and leases that outlast the test however slow the machine: none ends, and so no
    // place at the endpoint frees up, until the test ends them.
    const settings = { ...boundsConfig, deliveryTimeoutMs: 600_000, leaseMs: 600_000 };
    await withWorker(
      async (worker) => {
        const ids = await queueEvents(buyerId, [endpointId], 3 * bound);
        try {
          worker.wake();
          await eventuallyWithin(async () => expect(silent.received).toHaveLength(bound));
          const waiting = await statuses(ids);
          expect(waiting.filter((status) => status === "delivering")).toHaveLength(bound);
          expect(waiting.filter((status) => status === "pending")).toHaveLength(2 * bound);
          expect(await silent.openConnections()).toBe(bound);
          // The claim every look for work makes, this worker's or another process's, finds no room
          // at the endpoint while its attempts are under way.
          expect(await claimDeliveries(database, 3 * bound, settings)).toEqual([]);
          expect(silent.received).toHaveLength(bound);
        } finally {
          // Closing the receiver ends the attempts at once, rather than at their timeout.
          await database.prisma.webhookEndpoint.delete({ where: { id: endpointId } });
          await silent.close();
        }
        expect(await statuses(ids)).toEqual([]);
      },
      { settings },
    );
  });

  it("delivers a buyer's events on time while another buyer's ten endpoints hang", async () => {
    const attacker = await seedBuyer(database, "Hanging endpoints");
    const victim = await seedBuyer(database, "Healthy endpoint");
    const silent = await receiver();
    silent.answerAlways("hang");
    const healthy = await receiver();
    const hangingIds: string[] = [];
    for (let index = 0; index < 10; index += 1)
      hangingIds.push(await createEndpoint(attacker.buyerId, silent));
    const healthyId = await createEndpoint(victim.buyerId, healthy);
    const hangMs = 6_000;
    await withWorker(
      async (worker) => {
        // The hanging endpoints' deliveries are queued first, so they are the oldest due.
        await queueEvents(attacker.buyerId, hangingIds, 5);
        worker.wake();
        await eventuallyWithin(async () => expect(silent.received.length).toBeGreaterThan(0));
        const ids = await queueEvents(victim.buyerId, [healthyId], 5);
        worker.wake();
        await eventuallyWithin(
          async () => expect(await statuses(ids)).toEqual(ids.map(() => "succeeded")),
          hangMs,
        );
        // All delivered while the hanging endpoints' first attempts were still waiting for an answer.
        const hangingAttempts = await database.prisma.webhookDeliveryAttempt.count({
          where: { delivery: { endpointId: { in: hangingIds } } },
        });
        expect(hangingAttempts).toBe(0);
        await database.prisma.webhookEndpoint.deleteMany({ where: { id: { in: hangingIds } } });
        await silent.close();
      },
      { settings: { deliveryTimeoutMs: hangMs } },
    );
  });

  it("drops quietly an attempt whose endpoint was deleted meanwhile, without reporting a lost lease", async () => {
    const { buyerId } = await seedBuyer(database, "Deleted endpoint");
    const silent = await receiver();
    silent.answerAlways("hang");
    const endpointId = await createEndpoint(buyerId, silent);
    const lines: { level: number; msg: string; deliveryId?: string }[] = [];
    const logger = pino(
      { level: "debug", base: undefined },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    await withWorker(
      async (worker) => {
        const [deliveryId] = await queueEvents(buyerId, [endpointId], 1);
        worker.wake();
        await eventuallyWithin(async () => expect(silent.received).toHaveLength(1));
        await database.prisma.webhookEndpoint.delete({ where: { id: endpointId } });
        await eventuallyWithin(async () =>
          expect(lines.filter((line) => line.deliveryId === deliveryId)).not.toEqual([]),
        );
        const about = lines.filter((line) => line.deliveryId === deliveryId);
        expect(about.map((line) => line.msg).join("\n")).not.toContain("lease ran out");
        // Debug, not a warning: nothing is wrong.
        expect(about.every((line) => line.level <= 20)).toBe(true);
      },
      { logger, settings: { deliveryTimeoutMs: 2_000 } },
    );
  });
});

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
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let endpointId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(database, "Receiver");
    receiver = await startWebhookReceiver();
    worker = await startWebhookWorker({ database, config, logger: createLogger("silent") });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
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
