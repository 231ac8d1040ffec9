// Writing the outcomes of a worker's attempts in batches: successes together,
// with a claim of work for the slots they give back.
import { type FinishedAttempt, recordAttempts } from "../services/webhook-attempt-batch.js";
import { type AttemptOutcome, type AttemptRecord, isSuccess } from "../services/webhook-attempt-record.js";
import type { ClaimedDelivery } from "../services/webhook-claim.js";
import type { WebhookWorkerOptions, WorkerState } from "./worker-state.js";

/** What became of an attempt's outcome, and whether the write claimed work in its place. */
export interface WrittenOutcome {
  recorded: AttemptRecord;
  claimedInItsPlace: boolean;
}

/** Writes attempts' outcomes; resolves once the outcome is written (or known not to be). */
export interface OutcomeWriter {
  write(claim: ClaimedDelivery, outcome: AttemptOutcome): Promise<WrittenOutcome>;
}

/**
 * Outcomes that finish while a write is running wait for it and are then
 * written together, so that a busy worker writes many outcomes per statement
 * and an idle one writes each at once. The statement that writes successes
 * also claims work for the slots they give back (and any other free ones),
 * so a busy slot costs one statement per delivery. An attempt counts as in
 * flight, and its delivery stays under lease, until its outcome is written.
 */
export function createOutcomeWriter(
  options: WebhookWorkerOptions,
  state: WorkerState,
  track: (claims: readonly ClaimedDelivery[]) => void,
): OutcomeWriter {
  const { database, config } = options;
  let waiting: { attempt: FinishedAttempt; settle: (written: WrittenOutcome | Error) => void }[] = [];
  let writing = false;

  async function writeWaiting(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const successes = batch.filter((entry) => isSuccess(entry.attempt.outcome)).length;
      // The successes' attempts are still in flight: their slots are the ones given back.
      const room = state.stopped
        ? 0
        : Math.max(0, config.concurrency - state.inFlight.size - state.reserved + successes);
      state.reserved += room;
      try {
        const { records, claims } = await recordAttempts(
          database,
          batch.map((entry) => entry.attempt),
          config,
          room,
        ).finally(() => {
          state.reserved -= room;
        });
        track(claims);
        batch.forEach((entry, index) => {
          entry.settle({
            recorded: records[index] ?? "delivery gone",
            claimedInItsPlace: isSuccess(entry.attempt.outcome),
          });
        });
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const entry of batch) entry.settle(failure);
      }
    }
    writing = false;
  }

  return {
    write(claim, outcome) {
      return new Promise<WrittenOutcome>((resolve, reject) => {
        waiting.push({
          attempt: { claim, outcome },
          settle: (written) => (written instanceof Error ? reject(written) : resolve(written)),
        });
        if (!writing) void writeWaiting();
      });
    },
  };
}
