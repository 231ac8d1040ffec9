// The delivery worker each server process runs: it claims due deliveries
// from the shared queue, attempts them a few at a time, and writes each
// outcome. Stopping it waits for attempts in flight.
import type { ClaimedDelivery } from "../services/webhook-claim.js";
import { WEBHOOK_WORK_CHANNEL } from "../services/webhook-queue.js";
import { type AttemptServices, attemptDelivery } from "./delivery-attempt.js";
import { lookForWork } from "./delivery-loop.js";
import { createOutcomeWriter } from "./outcome-writer.js";
import { createSecretCache } from "./secret-cache.js";
import { createWebhookSender, type WebhookSender } from "./send.js";
import { initialWorkerState, type WebhookWorkerOptions, type WorkerState } from "./worker-state.js";

export interface WebhookWorker {
  /** Looks for work now instead of at the next poll. */
  wake(): void;
  /** Claims nothing more and waits for the attempts in flight. */
  stop(): Promise<void>;
}

export const WEBHOOK_USER_AGENT = "buyer-api-webhooks/1";

/** How long a notification of new work waits for others to join it (docs/reference/webhooks.md, "Where events come from"). */
const WAKE_COALESCE_MS = 100;

export async function startWebhookWorker(options: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { database, config, logger } = options;
  const state = initialWorkerState();
  const sender = createWebhookSender({
    timeoutMs: config.deliveryTimeoutMs,
    policy: config,
    userAgent: WEBHOOK_USER_AGENT,
    idleConnectionsPerOrigin: config.endpointConcurrency,
  });

  const attempts: AttemptServices = {
    sender,
    secrets: createSecretCache(config.secretKeys),
    outcomes: createOutcomeWriter(options, state, (claims) => {
      for (const claim of claims) track(claim);
    }),
  };

  function track(claim: ClaimedDelivery): void {
    const running = attemptDelivery(options, attempts, claim)
      .catch((error: unknown) => {
        // The claim stays leased: once the lease runs out the delivery is tried again.
        logger.error({ err: error, deliveryId: claim.id }, "webhook delivery attempt failed unexpectedly");
        return false;
      })
      .then((claimedInItsPlace) => {
        state.inFlight.delete(running);
        if (!claimedInItsPlace) look();
      });
    state.inFlight.add(running);
  }

  function lookAndRender(): void {
    state.renderDue = true;
    look();
  }

  function look(): void {
    if (state.stopped) return;
    if (state.looking) {
      state.lookAgain = true;
      return;
    }
    state.looking = true;
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    lookForWork(options, state, track)
      .catch((error: unknown) => logger.error({ err: error }, "webhook worker could not claim deliveries"))
      .finally(() => {
        state.looking = false;
        if (state.stopped) return;
        if (state.lookAgain) look();
        else state.timer = setTimeout(lookAndRender, config.pollIntervalMs);
      });
  }

  // Every writing transaction notifies every process. Looking once per notification would run the
  // materialiser's claim in each process for each write, a tax on writes that grows with the
  // number of processes; notifications within WAKE_COALESCE_MS of the first are answered by one look.
  function wakeSoon(): void {
    if (state.stopped || state.wakeTimer) return;
    state.wakeTimer = setTimeout(() => {
      state.wakeTimer = null;
      lookAndRender();
    }, WAKE_COALESCE_MS);
  }

  const unlisten = await database.listen(WEBHOOK_WORK_CHANNEL, wakeSoon);
  lookAndRender();

  return {
    wake: lookAndRender,
    stop: () => stopWorker(state, unlisten, sender),
  };
}

async function stopWorker(
  state: WorkerState,
  unlisten: () => Promise<void>,
  sender: WebhookSender,
): Promise<void> {
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  if (state.wakeTimer) clearTimeout(state.wakeTimer);
  await unlisten();
  while (state.looking || state.inFlight.size > 0) {
    await Promise.allSettled([...state.inFlight]);
    if (state.looking) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  sender.close();
}
