/**
 * Turns at expensive work in this process, shared fairly between API keys.
 * At most `maxRunning` pieces of work run at once, all keys together, since
 * past about one per core each more only slows every other request down (the
 * database and the event loop share the same cores). A key holds its place
 * from its turn until its answer has been sent (`maxHeldPerKey`): a client
 * reading slowly still holds the answer's bytes. Work that cannot start waits
 * in its key's queue, and the queues are served in rotation: another key's
 * request waits for at most one piece of a flooding key's work. Past
 * `maxWaitingPerKey` waiting, the key's next request is refused at once.
 */
export interface FairTurns {
  /**
   * The key's turn, once the process and the key have room; null at once when
   * the key has as many requests waiting as it may, or when `signal` aborts
   * while it waits.
   */
  take(apiKeyId: string, signal?: AbortSignal): Promise<Turn | null>;
  /** Turns running now, all keys together. */
  readonly running: number;
  /** Places held now, from the turn until the answer has been sent, all keys together. */
  readonly held: number;
  /** Requests waiting for a turn, all keys together. */
  readonly waiting: number;
}

export interface Turn {
  /** The work is done (its answer may still be sent): the next waiting request may run. */
  finish(): void;
  /** The answer has left the process, or never will: the key's place is free too. */
  release(): void;
}

export interface FairTurnsBounds {
  maxRunning: number;
  maxHeldPerKey: number;
  maxWaitingPerKey: number;
}

interface Waiter {
  grant(turn: Turn): void;
}

interface KeyTurns {
  held: number;
  waiting: Waiter[];
}

export function createFairTurns(bounds: FairTurnsBounds): FairTurns {
  const keys = new Map<string, KeyTurns>();
  // Keys with requests waiting, in the order they are served next; a key served goes to the back.
  const rotation = new Set<string>();
  let running = 0;
  let held = 0;
  let waiting = 0;

  const turnsOf = (apiKeyId: string): KeyTurns => {
    let turns = keys.get(apiKeyId);
    if (!turns) {
      turns = { held: 0, waiting: [] };
      keys.set(apiKeyId, turns);
    }
    return turns;
  };
  const forget = (apiKeyId: string, turns: KeyTurns) => {
    if (turns.held === 0 && turns.waiting.length === 0) keys.delete(apiKeyId);
  };
  const start = (apiKeyId: string, turns: KeyTurns): Turn => {
    turns.held += 1;
    held += 1;
    running += 1;
    let runs = true;
    let holds = true;
    const stop = () => {
      if (!runs) return false;
      runs = false;
      running -= 1;
      return true;
    };
    return {
      finish() {
        if (stop()) serveWaiting();
      },
      release() {
        stop();
        if (holds) {
          holds = false;
          turns.held -= 1;
          held -= 1;
          forget(apiKeyId, turns);
        }
        serveWaiting();
      },
    };
  };
  /** Gives free turns to the first keys in rotation that may hold one more. */
  const serveWaiting = () => {
    while (running < bounds.maxRunning) {
      let next: [string, KeyTurns] | undefined;
      for (const apiKeyId of rotation) {
        const turns = keys.get(apiKeyId);
        if (turns && turns.held < bounds.maxHeldPerKey) {
          next = [apiKeyId, turns];
          break;
        }
      }
      if (!next) return;
      const [apiKeyId, turns] = next;
      const waiter = turns.waiting.shift();
      waiting -= 1;
      rotation.delete(apiKeyId);
      if (turns.waiting.length > 0) rotation.add(apiKeyId);
      waiter?.grant(start(apiKeyId, turns));
    }
  };

  return {
    get running() {
      return running;
    },
    get held() {
      return held;
    },
    get waiting() {
      return waiting;
    },
    take(apiKeyId, signal) {
      const turns = turnsOf(apiKeyId);
      // Free turns are handed out as soon as they free up, so none is free while a request that may run waits.
      if (running < bounds.maxRunning && turns.held < bounds.maxHeldPerKey && turns.waiting.length === 0) {
        return Promise.resolve(start(apiKeyId, turns));
      }
      if (turns.waiting.length >= bounds.maxWaitingPerKey || signal?.aborted) {
        forget(apiKeyId, turns);
        return Promise.resolve(null);
      }
      return new Promise<Turn | null>((resolve) => {
        const leave = () => {
          const index = turns.waiting.indexOf(waiter);
          if (index < 0) return;
          turns.waiting.splice(index, 1);
          waiting -= 1;
          if (turns.waiting.length === 0) rotation.delete(apiKeyId);
          forget(apiKeyId, turns);
          resolve(null);
        };
        const waiter: Waiter = {
          grant(turn) {
            signal?.removeEventListener("abort", leave);
            resolve(turn);
          },
        };
        turns.waiting.push(waiter);
        waiting += 1;
        rotation.add(apiKeyId);
        signal?.addEventListener("abort", leave, { once: true });
      });
    },
  };
}
