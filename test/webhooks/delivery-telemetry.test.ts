// What an operator sees of webhook deliveries: a client span per attempt in
// the traces (exported to a real OTLP/HTTP receiver) and the attempts counted
// in /metrics, delivered and failed apart.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_CONFIG, loadConfig, type WebhookConfig } from "../../src/config.js";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { createMetrics, type Metrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { queueDeliveries } from "../../src/services/webhook-queue.js";
import { startTracing, type Tracing } from "../../src/telemetry/tracing.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/worker.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";
import { type OtlpReceiver, startOtlpReceiver } from "../telemetry/otlp-receiver.js";

const config: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  retryScheduleMs: [60_000],
  retryJitter: 0,
  deliveryTimeoutMs: 500,
  pollIntervalMs: 50,
};

describe("webhook deliveries in traces and metrics", { timeout: 60_000 }, () => {
  let collector: OtlpReceiver;
  let tracing: Tracing;
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let worker: WebhookWorker;
  let metrics: Metrics;

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    const settings = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    }).tracing;
    if (!settings) throw new Error("an OTLP endpoint should turn tracing on");
    tracing = await startTracing(settings, createLogger("silent"));
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Traced receiver");
    receiver = await startWebhookReceiver();
    metrics = createMetrics();
    worker = await startWebhookWorker({
      database,
      config,
      logger: createLogger("silent"),
      tracing,
      observeAttempt: metrics.observeWebhookAttempt,
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await tracing?.shutdown();
    await receiver?.close();
    await collector?.close();
    await database?.close();
  });

  async function deliverTo(url: string): Promise<{ eventId: string; endpointId: string }> {
    const endpointId = randomUUID();
    const secret = generateSigningSecret();
    receiver.setSecret(secret);
    await database.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        buyerId: buyer.buyerId,
        url,
        enabledEvents: ["*"],
        secretCiphertext: encryptSecret(secret, endpointId, config.secretKeys),
      },
    });
    const eventId = randomUUID();
    await database.prisma.webhookEvent.create({
      data: {
        id: eventId,
        buyerId: buyer.buyerId,
        type: "order.updated",
        data: JSON.stringify({ object: { id: eventId } }),
      },
    });
    await database.prisma.$transaction((tx) =>
      queueDeliveries(tx, { buyerId: buyer.buyerId, eventId, endpointIds: [endpointId] }),
    );
    worker.wake();
    return { eventId, endpointId };
  }

  it("sends a client span for each attempt, with the event and endpoint but not the URL's path", async () => {
    const { eventId, endpointId } = await deliverTo(`${receiver.url}/hooks/secret-token-in-path`);
    await tracing.forceFlush();
    const span = await collector.waitForSpan(
      (candidate) =>
        candidate.name === "webhook deliver" && candidate.attributes["app.webhook.event_id"] === eventId,
    );
    expect(span.kind).toBe(3);
    expect(span.attributes).toMatchObject({
      "app.webhook.event_type": "order.updated",
      "app.webhook.endpoint_id": endpointId,
      "http.response.status_code": expect.any(Number),
    });
    expect(JSON.stringify(span.attributes)).not.toContain("secret-token-in-path");
    expect(span.statusCode).not.toBe(2);
  });

  it("marks an attempt nobody answers as an error, and counts attempts by outcome in /metrics", async () => {
    // A port nobody listens on: the attempt fails at connect.
    const { eventId } = await deliverTo("http://127.0.0.1:9/hooks");
    const span = await collector.waitForSpan(
      (candidate) =>
        candidate.name === "webhook deliver" && candidate.attributes["app.webhook.event_id"] === eventId,
    );
    expect(span.statusCode).toBe(2);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/webhook_delivery_attempts_total\{outcome="delivered"\} 1\b/);
    expect(text).toMatch(/webhook_delivery_attempts_total\{outcome="failed"\} 1\b/);
    expect(text).toMatch(/webhook_delivery_duration_seconds_count 2\b/);
  });
});
