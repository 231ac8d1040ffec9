// What a webhook worker is given, and what it tracks while it runs.
import type { WebhookConfig } from "../config.js";
import type { Database } from "../db/database.js";
import type { Logger } from "../logger.js";
import type { Tracing } from "../telemetry/tracing-types.js";
import type { RecordRenderer, RenderedBatch } from "./materializer.js";

export interface WebhookWorkerOptions {
  database: Database;
  config: WebhookConfig;
  logger: Logger;
  /** Renders change log entries into events; without it this worker only delivers. */
  render?: RecordRenderer;
  /** Counts each committed rendering transaction in /metrics. */
  observeRendering?: (batch: RenderedBatch) => void;
  /** A span per attempt when tracing is on. */
  tracing?: Pick<Tracing, "traceWebhookDelivery">;
  /** Counts each attempt in /metrics. */
  observeAttempt?: (outcome: "delivered" | "failed", seconds: number) => void;
}

/** What a running worker tracks between its looks for work and its attempts. */
export interface WorkerState {
  inFlight: Set<Promise<void>>;
  stopped: boolean;
  /** The next poll. */
  timer: NodeJS.Timeout | null;
  /** The coalescing wait after a notification. */
  wakeTimer: NodeJS.Timeout | null;
  /** A look for work is running. */
  looking: boolean;
  /** Look again as soon as the running look ends. */
  lookAgain: boolean;
  /**
   * The next look renders change log entries: set by a notification, a poll
   * or a full batch, not by a finished attempt, whose look only claims
   * (unless the last rendering is a poll interval old).
   */
  renderDue: boolean;
  renderedAt: number;
  prunedAt: number;
  /** When this process last made deliveries whose lease ran out pending again. */
  releasedAt: number;
  /** Slots that claims running now may fill: counted as taken, so that two claims cannot both fill them. */
  reserved: number;
}

/** A worker's state before its first look for work: rendering is due. */
export function initialWorkerState(): WorkerState {
  return {
    inFlight: new Set(),
    stopped: false,
    timer: null,
    wakeTimer: null,
    looking: false,
    lookAgain: false,
    renderDue: true,
    renderedAt: 0,
    prunedAt: 0,
    releasedAt: 0,
    reserved: 0,
  };
}
