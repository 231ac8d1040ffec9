// The delivery worker each server process runs: it claims due deliveries
// from the shared queue, attempts them a few at a time, and writes each
// outcome. Stopping it waits for attempts in flight.
import type { WebhookConfig } from "../config.js";
import type { Database } from "../db/database.js";
import { decryptSecret } from "../domain/webhook-secrets.js";
import type { Logger } from "../logger.js";
import {
  type ClaimedDelivery,
  cancelDelivery,
  claimDeliveries,
  isSuccess,
  pruneEvents,
  recordAttempt,
  WEBHOOK_WORK_CHANNEL,
} from "../services/webhook-queue.js";
import type { Tracing } from "../telemetry/tracing-types.js";
import { materializeEvents, type RecordRenderer, type RenderedBatch } from "./materializer.js";
import { createWebhookSender } from "./send.js";

export interface WebhookWorker {
  /** Looks for work now instead of at the next poll. */
  wake(): void;
  /** Claims nothing more and waits for the attempts in flight. */
  stop(): Promise<void>;
}

export const WEBHOOK_USER_AGENT = "buyer-api-webhooks/1";

/** How long a notification of new work waits for others to join it (docs/webhooks.md, "Where events come from"). */
const WAKE_COALESCE_MS = 100;

/**
 * The JSON body integrators receive, the same as `GET /events/{id}`. `data` is
 * the stored JSON text, placed as it is: its object is byte for byte what the
 * REST read answered when the event was rendered.
 */
export function eventBody(event: { id: string; type: string; createdAt: Date; data: string }): string {
  const head = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString() });
  return `${head.slice(0, -1)},"data":${event.data}}`;
}

export async function startWebhookWorker(options: {
  database: Database;
  config: WebhookConfig;
  logger: Logger;
  /** Renders change log entries into events; without it this worker only delivers. */
  render?: RecordRenderer;
  /** Change log entries rendered per transaction (docs/webhooks.md, "Where events come from"). */
  renderBatchSize?: number;
  /** Counts each committed rendering transaction in /metrics. */
  observeRendering?: (batch: RenderedBatch) => void;
  /** A span per attempt when tracing is on. */
  tracing?: Pick<Tracing, "traceWebhookDelivery">;
  /** Counts each attempt in /metrics. */
  observeAttempt?: (outcome: "delivered" | "failed", seconds: number) => void;
}): Promise<WebhookWorker> {
  const { database, config, logger, render, tracing, observeAttempt, observeRendering } = options;
  const renderBatchSize = options.renderBatchSize ?? 200;
  const { prisma } = database;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  let lookAgain = false;
  const sender = createWebhookSender({
    timeoutMs: config.deliveryTimeoutMs,
    policy: config,
    userAgent: WEBHOOK_USER_AGENT,
    idleConnectionsPerOrigin: config.endpointConcurrency,
  });

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    const delivery = await prisma.webhookDelivery.findUnique({
      where: { id: claim.id },
      select: { endpoint: true, event: { select: { id: true, type: true, createdAt: true, data: true } } },
    });
    if (!delivery) return;
    const { endpoint, event } = delivery;
    if (endpoint.status === "disabled") {
      await cancelDelivery(prisma, claim, "the endpoint is disabled");
      return;
    }
    const now = Date.now();
    const secrets = [decryptSecret(endpoint.secretCiphertext, endpoint.id, config.secretKeys)];
    if (endpoint.previousSecretCiphertext && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > now) {
      secrets.push(decryptSecret(endpoint.previousSecretCiphertext, endpoint.id, config.secretKeys));
    }
    const send = () => sender.send(endpoint.url, { id: event.id, body: eventBody(event), secrets });
    const outcome = tracing
      ? await tracing.traceWebhookDelivery(
          {
            deliveryId: claim.id,
            eventId: event.id,
            eventType: event.type,
            endpointId: endpoint.id,
            host: new URL(endpoint.url).host,
          },
          send,
        )
      : await send();
    observeAttempt?.(isSuccess(outcome) ? "delivered" : "failed", outcome.durationMs / 1000);
    const recorded = await recordAttempt(prisma, claim, outcome, config);
    if (recorded === "lease lost") {
      logger.warn({ deliveryId: claim.id }, "webhook delivery lease ran out before its attempt was written");
    } else if (recorded === "delivery gone") {
      logger.debug(
        { deliveryId: claim.id },
        "webhook delivery deleted with its endpoint or event during its attempt",
      );
    }
  }

  function track(claim: ClaimedDelivery): void {
    const running = attempt(claim)
      .catch((error: unknown) => {
        // The claim stays leased: once the lease runs out the delivery is tried again.
        logger.error({ err: error, deliveryId: claim.id }, "webhook delivery attempt failed unexpectedly");
      })
      .finally(() => {
        inFlight.delete(running);
        look();
      });
    inFlight.add(running);
  }

  /** Claims as many due deliveries as there are free slots; sleeps until the next poll when there are none. */
  let prunedAt = 0;
  const PRUNE_EVERY_MS = 60 * 60 * 1000;

  async function lookForWork(): Promise<void> {
    // One batch per look, so that deliveries are claimed between batches of a long backlog.
    const rendered = render ? await materializeEvents(prisma, render, renderBatchSize) : null;
    if (rendered && rendered.entries > 0) observeRendering?.(rendered);
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      const pruned = await pruneEvents(prisma, new Date(Date.now() - config.eventRetentionMs));
      if (pruned > 0) logger.info({ pruned }, "pruned webhook events past their retention");
    }
    do {
      lookAgain = false;
      const free = config.concurrency - inFlight.size;
      if (stopped || free <= 0) break;
      const claims = await claimDeliveries(database, free, config);
      for (const claim of claims) track(claim);
      if (claims.length === free) lookAgain = true;
    } while (lookAgain && !stopped);
    if (rendered?.full && !stopped) lookAgain = true;
  }

  function look(): void {
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = true;
    if (timer) clearTimeout(timer);
    timer = null;
    lookForWork()
      .catch((error: unknown) => logger.error({ err: error }, "webhook worker could not claim deliveries"))
      .finally(() => {
        looking = false;
        if (stopped) return;
        if (lookAgain) look();
        else timer = setTimeout(look, config.pollIntervalMs);
      });
  }

  // Every writing transaction notifies every process. Looking once per notification would run the
  // materialiser's claim in each process for each write, a tax on writes that grows with the
  // number of processes; notifications within WAKE_COALESCE_MS of the first are answered by one look.
  let wakeTimer: NodeJS.Timeout | null = null;
  function wakeSoon(): void {
    if (stopped || wakeTimer) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      look();
    }, WAKE_COALESCE_MS);
  }

  const unlisten = await database.listen(WEBHOOK_WORK_CHANNEL, wakeSoon);
  look();

  return {
    wake: look,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      await unlisten();
      while (looking || inFlight.size > 0) {
        await Promise.allSettled([...inFlight]);
        if (looking) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      sender.close();
    },
  };
}
