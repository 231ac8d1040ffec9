// A worker's look for work: rendering when due, housekeeping, and claiming
// due deliveries into its free slots.
import { type ClaimedDelivery, claimDeliveries } from "../services/webhook-claim.js";
import { releaseExpiredLeases } from "../services/webhook-leases.js";
import { pruneEvents } from "../services/webhook-queue.js";
import { renderAgainIfFull, renderWhenDue } from "./render-trigger.js";
import type { WebhookWorkerOptions, WorkerState } from "./worker-state.js";

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Claims as many due deliveries as there are free slots; sleeps until the next poll when there are none. */
export async function lookForWork(
  options: WebhookWorkerOptions,
  state: WorkerState,
  track: (claim: ClaimedDelivery) => void,
): Promise<void> {
  const { database, config } = options;
  const rendered = await renderWhenDue(options, state);
  await pruneEventsWhenDue(options, state);
  await releaseExpiredLeasesWhenDue(options, state);
  do {
    state.lookAgain = false;
    const free = config.concurrency - state.inFlight.size - state.reserved;
    if (state.stopped || free <= 0) break;
    state.reserved += free;
    const claims = await claimDeliveries(database, free, config).finally(() => {
      state.reserved -= free;
    });
    for (const claim of claims) track(claim);
    if (claims.length === free) state.lookAgain = true;
  } while (state.lookAgain && !state.stopped);
  renderAgainIfFull(rendered, state);
}

/** Deletes events past their retention, at most once per PRUNE_EVERY_MS. */
async function pruneEventsWhenDue(options: WebhookWorkerOptions, state: WorkerState): Promise<void> {
  const { database, config, logger } = options;
  const { prisma } = database;
  if (Date.now() - state.prunedAt > PRUNE_EVERY_MS) {
    state.prunedAt = Date.now();
    const pruned = await pruneEvents(prisma, new Date(Date.now() - config.eventRetentionMs));
    if (pruned > 0) logger.info({ pruned }, "pruned webhook events past their retention");
  }
}

/** Makes deliveries whose lease ran out pending again, at most once per poll interval. */
async function releaseExpiredLeasesWhenDue(options: WebhookWorkerOptions, state: WorkerState): Promise<void> {
  const { database, config } = options;
  // A lease normally runs out only when its process died; looking for those once per poll is as prompt as an idle process.
  if (Date.now() - state.releasedAt >= config.pollIntervalMs) {
    state.releasedAt = Date.now();
    await releaseExpiredLeases(database);
  }
}
