import type { FairTurns, Turn } from "./fair-turns.js";

/**
 * Turns at expensive work shared by several processes (a cluster's workers)
 * over messages: one process keeps the turns and every key's queue
 * (`createTurnKeeper`), the others ask it for a turn and give it back
 * (`createRemoteTurns`). One key's flood then takes at most the host's turns,
 * whichever workers its connections reach, and the rotation between keys
 * spans the host.
 */

/** A process's message about one request's turn, numbered by that process. */
export type TurnRequest =
  | { type: typeof TURN_REQUEST; id: number; take: string }
  /** The work is done; its answer is being sent. */
  | { type: typeof TURN_REQUEST; id: number; finish: true }
  /** Done with the turn, granted or still waited for: the key's place is free. */
  | { type: typeof TURN_REQUEST; id: number; release: true };

/** The keeper's answer to a request to take a turn. */
export interface TurnAnswer {
  type: typeof TURN_ANSWER;
  id: number;
  granted: boolean;
}

export const TURN_REQUEST = "buyer-api:turn";
export const TURN_ANSWER = "buyer-api:turn-answer";

const isObject = (message: unknown): message is Record<string, unknown> =>
  typeof message === "object" && message !== null;

export function isTurnRequest(message: unknown): message is TurnRequest {
  return isObject(message) && message.type === TURN_REQUEST && typeof message.id === "number";
}

function isTurnAnswer(message: unknown): message is TurnAnswer {
  return (
    isObject(message) &&
    message.type === TURN_ANSWER &&
    typeof message.id === "number" &&
    typeof message.granted === "boolean"
  );
}

export interface TurnKeeper {
  /** Handles a request from process `from`; `answer` reaches that process. */
  receive(from: number, request: TurnRequest, answer: (message: TurnAnswer) => void): void;
  /** Process `from` is gone: its turns are given back and its waiting requests leave. */
  lost(from: number): void;
}

interface Asked {
  leave: AbortController;
  turn?: Turn;
}

/** Keeps `turns` for every process that asks. */
export function createTurnKeeper(turns: FairTurns): TurnKeeper {
  const askedBy = new Map<number, Map<number, Asked>>();
  const close = (asked: Asked) => {
    if (asked.turn) asked.turn.release();
    else asked.leave.abort();
  };
  return {
    receive(from, request, answer) {
      let asked = askedBy.get(from);
      if (!asked) {
        asked = new Map();
        askedBy.set(from, asked);
      }
      const requests = asked;
      const { id } = request;
      if ("take" in request) {
        const entry: Asked = { leave: new AbortController() };
        requests.set(id, entry);
        void turns.take(request.take, entry.leave.signal).then((turn) => {
          // Released (or its process lost) before the turn came: give it straight back.
          if (requests.get(id) !== entry) {
            turn?.release();
            return;
          }
          if (turn) entry.turn = turn;
          else requests.delete(id);
          answer({ type: TURN_ANSWER, id, granted: turn !== null });
        });
      } else if ("finish" in request) {
        requests.get(id)?.turn?.finish();
      } else {
        const entry = requests.get(id);
        requests.delete(id);
        if (entry) close(entry);
      }
    },
    lost(from) {
      const requests = askedBy.get(from);
      askedBy.delete(from);
      for (const [id, entry] of requests ?? []) {
        // Removed first: a turn this release grants to the process's next waiting request is given straight back.
        requests?.delete(id);
        close(entry);
      }
    },
  };
}

export interface RemoteTurns extends FairTurns {
  /** Hands over a message from the keeper; others are ignored. */
  receive(message: unknown): void;
}

interface Pending {
  settle(granted: boolean): void;
}

/**
 * Turns taken from a keeper in another process through `send`. Its counts
 * are this process's requests, so that summed over the processes they are
 * the host's.
 */
export function createRemoteTurns(send: (request: TurnRequest) => void): RemoteTurns {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let running = 0;
  let held = 0;
  let waiting = 0;
  const turn = (id: number): Turn => {
    let runs = true;
    let holds = true;
    running += 1;
    held += 1;
    const stop = () => {
      if (!runs) return;
      runs = false;
      running -= 1;
    };
    return {
      finish() {
        if (!runs) return;
        stop();
        send({ type: TURN_REQUEST, id, finish: true });
      },
      release() {
        stop();
        if (!holds) return;
        holds = false;
        held -= 1;
        send({ type: TURN_REQUEST, id, release: true });
      },
    };
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
      if (signal?.aborted) return Promise.resolve(null);
      const id = nextId++;
      return new Promise<Turn | null>((resolve) => {
        const leave = () => {
          if (!pending.delete(id)) return;
          waiting -= 1;
          // The keeper gives the turn back if it granted it meanwhile; its answer is then ignored.
          send({ type: TURN_REQUEST, id, release: true });
          resolve(null);
        };
        pending.set(id, {
          settle(granted) {
            signal?.removeEventListener("abort", leave);
            waiting -= 1;
            resolve(granted ? turn(id) : null);
          },
        });
        waiting += 1;
        signal?.addEventListener("abort", leave, { once: true });
        send({ type: TURN_REQUEST, id, take: apiKeyId });
      });
    },
    receive(message) {
      if (!isTurnAnswer(message)) return;
      const asked = pending.get(message.id);
      pending.delete(message.id);
      asked?.settle(message.granted);
    },
  };
}
