// When a worker's look for work renders change log entries into events.
import { materializeEvents, type RenderedBatch } from "./materializer.js";
import type { WebhookWorkerOptions, WorkerState } from "./worker-state.js";

/**
 * Renders one batch of change log entries when rendering is due (a
 * notification, a poll or a full batch asked for it, or the last rendering is
 * a poll interval old); null when it is not, or the worker has no renderer.
 */
export async function renderWhenDue(
  options: WebhookWorkerOptions,
  state: WorkerState,
): Promise<RenderedBatch | null> {
  const { database, config, render, observeRendering } = options;
  const { prisma } = database;
  // One batch per look, so that deliveries are claimed between batches of a long backlog.
  const renders =
    render !== undefined && (state.renderDue || Date.now() - state.renderedAt >= config.pollIntervalMs);
  state.renderDue = false;
  if (renders) state.renderedAt = Date.now();
  const rendered = renders
    ? await materializeEvents(prisma, render, config.renderBatchSize, {
        timeoutMs: config.renderTransactionTimeoutMs,
        waitMs: config.renderTransactionWaitMs,
      })
    : null;
  if (rendered && rendered.entries > 0) observeRendering?.(rendered);
  return rendered;
}

/** After a full batch, the next look renders again at once: the backlog is not drained yet. */
export function renderAgainIfFull(rendered: RenderedBatch | null, state: WorkerState): void {
  if (rendered?.full && !state.stopped) {
    state.renderDue = true;
    state.lookAgain = true;
  }
}
