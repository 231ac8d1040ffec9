import cluster, { type Worker } from "node:cluster";
import { createFairTurns, type FairTurns, type FairTurnsBounds } from "../http/fair-turns.js";
import {
  createRemoteTurns,
  createTurnKeeper,
  isTurnRequest,
  type TurnRequest,
} from "../http/shared-turns.js";

// With WEB_CONCURRENCY workers, expensive work takes turns across the host:
// the primary keeps the turns and each key's queue, and a worker asks it for
// a turn over cluster IPC (src/http/shared-turns.ts). Each worker's own turns
// would let one key's flood run on every core at once.

/** In the primary: keeps the host's turns; a worker that exits gives back all of its own. */
export function serveClusterTurns(bounds: FairTurnsBounds): void {
  const keeper = createTurnKeeper(createFairTurns(bounds));
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isTurnRequest(message)) return;
    keeper.receive(worker.id, message, (answer) => {
      if (worker.isConnected()) worker.send(answer);
    });
  });
  cluster.on("exit", (worker: Worker) => keeper.lost(worker.id));
}

/** In a worker: turns taken from the primary. */
export function workerClusterTurns(): FairTurns {
  const turns = createRemoteTurns((request: TurnRequest) => {
    if (process.connected) process.send?.(request);
  });
  process.on("message", (message: unknown) => turns.receive(message));
  return turns;
}
