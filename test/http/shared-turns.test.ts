// Turns kept by one process for others (src/http/shared-turns.ts), as a cluster's primary keeps
// them for its workers: the real keeper and the real remote turns, their messages delivered a
// turn of the event loop later, as IPC delivers them. test/hardening/cluster-turns.test.ts runs
// the same over node:cluster; here are the orderings a real cluster cannot be made to show.
import { describe, expect, it } from "vitest";
import { createFairTurns } from "../../src/http/fair-turns.js";
import { createRemoteTurns, createTurnKeeper, type RemoteTurns } from "../../src/http/shared-turns.js";

/** Lets messages in flight arrive, and what they grant run. */
const delivered = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** `count` processes whose turns one keeper keeps, with the host's bounds. */
function host(
  count: number,
  bounds: { maxRunning: number; maxHeldPerKey: number; maxWaitingPerKey: number },
) {
  const keeper = createTurnKeeper(createFairTurns(bounds));
  const processes: RemoteTurns[] = [];
  for (let index = 0; index < count; index += 1) {
    const remote: RemoteTurns = createRemoteTurns((request) =>
      setImmediate(() =>
        keeper.receive(index, request, (answer) => setImmediate(() => processes[index]?.receive(answer))),
      ),
    );
    processes.push(remote);
  }
  return { keeper, processes };
}

describe("turns shared by several processes", () => {
  it("holds a key's place in one process against its requests in another, and serves other keys", async () => {
    const { processes } = host(2, { maxRunning: 1, maxHeldPerKey: 1, maxWaitingPerKey: 0 });
    const [first, second] = processes;
    const held = await first?.take("flood");
    expect(held).not.toBeNull();
    expect(await second?.take("flood")).toBeNull();
    held?.finish();
    expect(await second?.take("other")).not.toBeNull();
    held?.release();
    await delivered();
    expect(first?.held).toBe(0);
  });

  it("gives back the turns and queue places of a process that is gone", async () => {
    const { keeper, processes } = host(2, { maxRunning: 1, maxHeldPerKey: 1, maxWaitingPerKey: 1 });
    const [lost, left] = processes;
    expect(await lost?.take("flood")).not.toBeNull();
    void lost?.take("flood");
    await delivered();
    expect(await left?.take("flood")).toBeNull();
    keeper.lost(0);
    expect(await left?.take("flood")).not.toBeNull();
  });

  it("gives the turn back when its request is abandoned while the grant is on its way", async () => {
    const { processes } = host(2, { maxRunning: 1, maxHeldPerKey: 8, maxWaitingPerKey: 8 });
    const [first, second] = processes;
    const running = await first?.take("a");
    const abandoned = new AbortController();
    const waiting = second?.take("b", abandoned.signal);
    await delivered();
    // The turn goes to the waiting request; its client leaves before the grant arrives.
    running?.release();
    setImmediate(() => abandoned.abort());
    expect(await waiting).toBeNull();
    expect(second?.waiting).toBe(0);
    // Nothing holds the host's one turn: the next request gets it.
    expect(await first?.take("c")).not.toBeNull();
  });
});
