import type { AppConfig } from "../config.js";
import { createFairTurns, type FairTurns, type FairTurnsBounds } from "./fair-turns.js";
import type { WhenSent } from "./response-cache.js";

/**
 * Expensive work in this process, for both APIs: GraphQL operations of high
 * cost and REST pages of many items not answered from the response cache.
 * It runs in turns shared fairly between keys (src/http/fair-turns.ts): a
 * few pieces at once in the process, each key holding its place until its
 * answer has left the process (or the connection is gone), because an
 * answer a client reads slowly holds its bytes as long as the work that made
 * it held the database. Past its waiting bound the key's next expensive
 * request is refused (429 with `Retry-After`). The bytes of all the key's answers still being
 * sent count against a bound of their own, past which any request of the
 * key is refused until some have gone: one key cannot take the process's
 * memory or its event loop from every other buyer.
 */
export interface ExpensiveWork {
  /**
   * A slot for one more piece of the key's expensive work, once it is its
   * turn; null when the key has as many waiting as it may (or the request
   * was abandoned while it waited).
   */
  take(apiKeyId: string, signal?: AbortSignal): Promise<ExpensiveSlot | null>;
  /** Whether the key's answers on their way have reached the bound: then none of its requests is taken. */
  sendingTooMuch(apiKeyId: string): boolean;
  /** Counts `bytes` of an answer to the key as being sent until `whenSent` says it has gone. */
  sending(apiKeyId: string, bytes: number, whenSent: WhenSent): void;
  /** The bounds, for the refusals' wording. */
  readonly maxPerKey: number;
  readonly maxWaitingPerKey: number;
  readonly maxSendingBytesPerKey: number;
  /** Slots held now, all keys together (for /metrics). */
  readonly running: number;
  /** Expensive requests waiting for their turn, all keys together (for /metrics). */
  readonly waiting: number;
  /** Bytes of answers to admitted keys not yet sent, all keys together (for /metrics). */
  readonly sendingBytes: number;
  /** Requests refused by either bound since start (for /metrics). */
  readonly refused: number;
}

export interface ExpensiveSlot {
  /**
   * The work is done. Its turn ends once its answer has been made (coded,
   * compressed, ready to go), so that another request's work may run: making
   * a large answer is work too. The key's place is given back once the answer
   * has left the process. Each at once when `answer` cannot tell.
   */
  release(answer: AnswerEvents): void;
}

/** How to learn where an answer is, when the server can tell. */
export interface AnswerEvents {
  whenMade?: WhenSent | undefined;
  whenSent?: WhenSent | undefined;
}

interface KeyLoad {
  sendingBytes: number;
}

/** For an answer whose progress the server cannot tell: at once. */
const now: WhenSent = (done) => done();

/** Seconds a refused request is told to wait: a slow answer is sent or cut off by then, or soon after. */
export const EXPENSIVE_RETRY_AFTER_SECONDS = 1;

/** The configured bounds on turns at expensive work: per process, or per host when a cluster's primary keeps them. */
export function expensiveTurnsBounds(config: AppConfig): FairTurnsBounds {
  return {
    maxRunning: config.maxRunningExpensive,
    maxHeldPerKey: config.maxConcurrentExpensivePerKey,
    maxWaitingPerKey: config.maxWaitingExpensivePerKey,
  };
}

export function createExpensiveWork(
  bounds: FairTurnsBounds & {
    maxSendingBytesPerKey: number;
  },
  /** Turns kept elsewhere (a cluster's primary, src/server/cluster-turns.ts); absent, this process's own. */
  turns: FairTurns = createFairTurns(bounds),
): ExpensiveWork {
  const loads = new Map<string, KeyLoad>();
  let sendingBytes = 0;
  let refused = 0;
  const loadOf = (apiKeyId: string): KeyLoad => {
    let load = loads.get(apiKeyId);
    if (!load) {
      load = { sendingBytes: 0 };
      loads.set(apiKeyId, load);
    }
    return load;
  };
  const forget = (apiKeyId: string, load: KeyLoad) => {
    if (load.sendingBytes === 0) loads.delete(apiKeyId);
  };
  return {
    maxPerKey: bounds.maxHeldPerKey,
    maxWaitingPerKey: bounds.maxWaitingPerKey,
    maxSendingBytesPerKey: bounds.maxSendingBytesPerKey,
    get running() {
      return turns.held;
    },
    get waiting() {
      return turns.waiting;
    },
    get sendingBytes() {
      return sendingBytes;
    },
    get refused() {
      return refused;
    },
    async take(apiKeyId, signal) {
      const turn = await turns.take(apiKeyId, signal);
      if (!turn) {
        // A request abandoned while it waited was not refused.
        if (!signal?.aborted) refused += 1;
        return null;
      }
      return {
        release({ whenMade = now, whenSent = now }) {
          // The place after the turn: an answer is sent only once made.
          whenMade(() => {
            turn.finish();
            whenSent(() => turn.release());
          });
        },
      };
    },
    sendingTooMuch(apiKeyId) {
      const tooMuch = (loads.get(apiKeyId)?.sendingBytes ?? 0) >= bounds.maxSendingBytesPerKey;
      if (tooMuch) refused += 1;
      return tooMuch;
    },
    sending(apiKeyId, bytes, whenSent) {
      if (bytes <= 0) return;
      const load = loadOf(apiKeyId);
      load.sendingBytes += bytes;
      sendingBytes += bytes;
      whenSent(() => {
        load.sendingBytes -= bytes;
        sendingBytes -= bytes;
        forget(apiKeyId, load);
      });
    },
  };
}
