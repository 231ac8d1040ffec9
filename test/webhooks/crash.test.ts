// At-least-once: a server process killed (kill -9) in the middle of a
// delivery loses nothing; once its lease runs out, another process delivers
// it. PGlite belongs to one process, so this runs where DATABASE_URL names
// PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { queueDeliveries } from "../../src/services/webhook-queue.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const onPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");
const KEY = Buffer.alloc(32, 3);

describe.runIf(onPostgres)("a delivery in flight when its process is killed", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const servers: ServerProcess[] = [];

  const start = () =>
    startServerProcess({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_SECRET_KEY: KEY.toString("base64"),
      WEBHOOK_LEASE: "2s",
      WEBHOOK_TIMEOUT: "30s",
      WEBHOOK_POLL_INTERVAL: "100ms",
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Crash Delivery");
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    await receiver?.close();
    await database?.close();
  });

  it("is delivered by the next process after kill -9", async () => {
    const endpointId = randomUUID();
    const secret = generateSigningSecret();
    receiver.setSecret(secret);
    await database.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        buyerId: buyer.buyerId,
        url: receiver.url,
        // Only the event below: the seeded records have events of their own.
        enabledEvents: ["order.created"],
        secretCiphertext: encryptSecret(secret, endpointId, [KEY]),
      },
    });
    const eventId = randomUUID();
    await database.prisma.webhookEvent.create({
      data: {
        id: eventId,
        buyerId: buyer.buyerId,
        type: "order.created",
        data: JSON.stringify({ object: { id: eventId } }),
      },
    });
    receiver.plan("hang");
    const [deliveryId = ""] = await database.prisma.$transaction((tx) =>
      queueDeliveries(tx, { buyerId: buyer.buyerId, eventId, endpointIds: [endpointId] }),
    );

    const doomed = await start();
    servers.push(doomed);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 30_000, interval: 50 });
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    expect(
      (await database.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status,
    ).toBe("delivering");

    servers.push(await start());
    await vi.waitFor(
      async () =>
        expect(
          (await database.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status,
        ).toBe("succeeded"),
      { timeout: 30_000, interval: 100 },
    );
    expect(receiver.received.map((message) => [message.id, message.verified])).toEqual([
      [eventId, true],
      [eventId, true],
    ]);
  });
});
