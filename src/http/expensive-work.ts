import type { WhenSent } from "./response-cache.js";

/**
 * One API key's expensive work in this process, for both APIs: GraphQL
 * operations of high cost and REST pages of many items not answered from
 * the response cache. Work counts from the moment it starts until its answer
 * has left the process (or the connection is gone), because an answer a
 * client reads slowly holds its bytes as long as the work that made it held
 * the database. Past that bound the key's next expensive request is refused
 * (429 with `Retry-After`). The bytes of all the key's answers still being
 * sent count against a bound of their own, past which any request of the
 * key is refused until some have gone: one key cannot take the process's
 * memory or its event loop from every other buyer.
 */
export interface ExpensiveWork {
  /** A slot for one more piece of the key's expensive work; null when the key has as many as it may. */
  take(apiKeyId: string): ExpensiveSlot | null;
  /** Whether the key's answers on their way have reached the bound: then none of its requests is taken. */
  sendingTooMuch(apiKeyId: string): boolean;
  /** Counts `bytes` of an answer to the key as being sent until `whenSent` says it has gone. */
  sending(apiKeyId: string, bytes: number, whenSent: WhenSent): void;
  /** The bounds, for the refusals' wording. */
  readonly maxPerKey: number;
  readonly maxSendingBytesPerKey: number;
  /** Slots held now, all keys together (for /metrics). */
  readonly running: number;
  /** Bytes of answers to admitted keys not yet sent, all keys together (for /metrics). */
  readonly sendingBytes: number;
  /** Requests refused by either bound since start (for /metrics). */
  readonly refused: number;
}

export interface ExpensiveSlot {
  /** Gives the slot back once the answer has left the process; at once when that cannot be told. */
  releaseWhenSent(whenSent: WhenSent | undefined): void;
}

interface KeyLoad {
  running: number;
  sendingBytes: number;
}

/** Seconds a refused request is told to wait: a slow answer is sent or cut off by then, or soon after. */
export const EXPENSIVE_RETRY_AFTER_SECONDS = 1;

export function createExpensiveWork(bounds: {
  maxPerKey: number;
  maxSendingBytesPerKey: number;
}): ExpensiveWork {
  const loads = new Map<string, KeyLoad>();
  let running = 0;
  let sendingBytes = 0;
  let refused = 0;
  const loadOf = (apiKeyId: string): KeyLoad => {
    let load = loads.get(apiKeyId);
    if (!load) {
      load = { running: 0, sendingBytes: 0 };
      loads.set(apiKeyId, load);
    }
    return load;
  };
  const forget = (apiKeyId: string, load: KeyLoad) => {
    if (load.running === 0 && load.sendingBytes === 0) loads.delete(apiKeyId);
  };
  return {
    maxPerKey: bounds.maxPerKey,
    maxSendingBytesPerKey: bounds.maxSendingBytesPerKey,
    get running() {
      return running;
    },
    get sendingBytes() {
      return sendingBytes;
    },
    get refused() {
      return refused;
    },
    take(apiKeyId) {
      const load = loadOf(apiKeyId);
      if (load.running >= bounds.maxPerKey) {
        forget(apiKeyId, load);
        refused += 1;
        return null;
      }
      load.running += 1;
      running += 1;
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        load.running -= 1;
        running -= 1;
        forget(apiKeyId, load);
      };
      return {
        releaseWhenSent(whenSent) {
          if (whenSent) whenSent(release);
          else release();
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
