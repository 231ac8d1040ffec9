// The delivery worker each server process runs: it claims due deliveries
// from the shared queue, attempts them a few at a time, and writes each
// outcome. Stopping it waits for attempts in flight.
import type { WebhookConfig } from "../config.js";
import type { Database } from "../db/database.js";
import { decryptSecret } from "../domain/webhook-secrets.js";
import type { Logger } from "../logger.js";
import {
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimedEndpoint,
  cancelDelivery,
  claimDeliveries,
  type FinishedAttempt,
  isSuccess,
  pruneEvents,
  recordAttempts,
  releaseExpiredLeases,
  WEBHOOK_WORK_CHANNEL,
} from "../services/webhook-queue.js";
import type { Tracing } from "../telemetry/tracing-types.js";
import { materializeEvents, type RecordRenderer, type RenderedBatch } from "./materializer.js";
import { createWebhookSender, type WebhookSender } from "./send.js";

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

export interface WebhookWorkerOptions {
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
}

/** What a running worker tracks between its looks for work and its attempts. */
interface WorkerState {
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

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export async function startWebhookWorker(options: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { database, config, logger } = options;
  const state: WorkerState = {
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

/** Claims as many due deliveries as there are free slots; sleeps until the next poll when there are none. */
async function lookForWork(
  options: WebhookWorkerOptions,
  state: WorkerState,
  track: (claim: ClaimedDelivery) => void,
): Promise<void> {
  const { database, config, logger, render, observeRendering } = options;
  const { prisma } = database;
  // One batch per look, so that deliveries are claimed between batches of a long backlog.
  const renders =
    render !== undefined && (state.renderDue || Date.now() - state.renderedAt >= config.pollIntervalMs);
  state.renderDue = false;
  if (renders) state.renderedAt = Date.now();
  const rendered = renders ? await materializeEvents(prisma, render, options.renderBatchSize ?? 200) : null;
  if (rendered && rendered.entries > 0) observeRendering?.(rendered);
  if (Date.now() - state.prunedAt > PRUNE_EVERY_MS) {
    state.prunedAt = Date.now();
    const pruned = await pruneEvents(prisma, new Date(Date.now() - config.eventRetentionMs));
    if (pruned > 0) logger.info({ pruned }, "pruned webhook events past their retention");
  }
  // A lease normally runs out only when its process died; looking for those once per poll is as prompt as an idle process.
  if (Date.now() - state.releasedAt >= config.pollIntervalMs) {
    state.releasedAt = Date.now();
    await releaseExpiredLeases(database);
  }
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
  if (rendered?.full && !state.stopped) {
    state.renderDue = true;
    state.lookAgain = true;
  }
}

/** What every attempt of one worker shares. */
interface AttemptServices {
  sender: WebhookSender;
  secrets: SecretCache;
  outcomes: OutcomeWriter;
}

/**
 * One attempt of a claimed delivery, signed with every secret of its endpoint,
 * and its outcome written; true when the write also claimed work in its place.
 */
async function attemptDelivery(
  options: WebhookWorkerOptions,
  { sender, secrets, outcomes }: AttemptServices,
  claim: ClaimedDelivery,
): Promise<boolean> {
  const { logger, tracing, observeAttempt } = options;
  const { endpoint, event } = claim;
  if (endpoint.status === "disabled") {
    await cancelDelivery(options.database.prisma, claim, "the endpoint is disabled");
    return false;
  }
  const message = { id: event.id, body: eventBody(event), secrets: secrets.signing(endpoint, Date.now()) };
  const send = () => sender.send(endpoint.url, message);
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
  const { recorded, claimedInItsPlace } = await outcomes.write(claim, outcome);
  if (recorded === "lease lost") {
    logger.warn({ deliveryId: claim.id }, "webhook delivery lease ran out before its attempt was written");
  } else if (recorded === "delivery gone") {
    logger.debug(
      { deliveryId: claim.id },
      "webhook delivery deleted with its endpoint or event during its attempt",
    );
  }
  return claimedInItsPlace;
}

/** The decrypted signing secrets of the endpoints this worker delivers to. */
interface SecretCache {
  /** The secrets that sign for `endpoint` at `now`: the current one, and the previous one until it expires. */
  signing(endpoint: ClaimedEndpoint, now: number): string[];
}

/** Endpoints whose secrets are kept decrypted; past this, the least recently added is dropped. */
const CACHED_ENDPOINTS = 1_000;

/**
 * Decrypts an endpoint's secrets once per stored version: an entry serves
 * only while the endpoint's ciphertexts are the ones it was decrypted from,
 * so a rotation is seen by the next claim.
 */
function createSecretCache(keys: readonly Buffer[]): SecretCache {
  const entries = new Map<
    string,
    { ciphertext: string; previousCiphertext: string | null; current: string; previous: string | null }
  >();
  const decrypted = (endpoint: ClaimedEndpoint) => {
    const cached = entries.get(endpoint.id);
    if (
      cached &&
      cached.ciphertext === endpoint.secretCiphertext &&
      cached.previousCiphertext === endpoint.previousSecretCiphertext
    ) {
      return cached;
    }
    const entry = {
      ciphertext: endpoint.secretCiphertext,
      previousCiphertext: endpoint.previousSecretCiphertext,
      current: decryptSecret(endpoint.secretCiphertext, endpoint.id, keys),
      previous: endpoint.previousSecretCiphertext
        ? decryptSecret(endpoint.previousSecretCiphertext, endpoint.id, keys)
        : null,
    };
    entries.delete(endpoint.id);
    entries.set(endpoint.id, entry);
    const oldest = entries.keys().next();
    if (entries.size > CACHED_ENDPOINTS && !oldest.done) entries.delete(oldest.value);
    return entry;
  };
  return {
    signing(endpoint, now) {
      const { current, previous } = decrypted(endpoint);
      const previousSigns = previous !== null && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > now;
      return previousSigns ? [current, previous] : [current];
    },
  };
}

/** What became of an attempt's outcome, and whether the write claimed work in its place. */
interface WrittenOutcome {
  recorded: AttemptRecord;
  claimedInItsPlace: boolean;
}

/** Writes attempts' outcomes; resolves once the outcome is written (or known not to be). */
interface OutcomeWriter {
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
function createOutcomeWriter(
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
