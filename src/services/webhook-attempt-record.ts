// What an attempt comes to, and what becomes of its outcome when it is
// written (src/services/webhook-attempt-batch.ts).

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /** Why it failed, when it did; never holds a secret. */
  error: string | null;
  durationMs: number;
}

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300 && !outcome.error;

/**
 * What became of an attempt's outcome: written; not written because the
 * claim's lease ran out and the delivery was claimed again; not written
 * because the delivery is gone (its endpoint or event was deleted).
 */
export type AttemptRecord = "written" | "lease lost" | "delivery gone";
