// Turns at expensive work shared between keys (src/http/fair-turns.ts): who starts, in what
// order, and who is refused, told by the order in which turns are granted, never by a clock.
import { describe, expect, it } from "vitest";
import { createFairTurns, type FairTurns, type Turn } from "../../src/http/fair-turns.js";

/** Asks for a turn as `label`, recording the label in `started` once it is granted. */
function ask(turns: FairTurns, apiKeyId: string, label: string, started: string[], signal?: AbortSignal) {
  return turns.take(apiKeyId, signal).then((turn) => {
    if (turn) started.push(label);
    return turn;
  });
}

/** Lets granted turns' callbacks run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("fair turns at expensive work", () => {
  it("serves another key's request after at most one more of a flooding key's", async () => {
    const turns = createFairTurns({ maxRunning: 1, maxHeldPerKey: 8, maxWaitingPerKey: 8 });
    const started: string[] = [];
    const asked = new Map<string, Promise<Turn | null>>();
    asked.set("flood 1", ask(turns, "flood", "flood 1", started));
    for (const n of [2, 3, 4, 5]) asked.set(`flood ${n}`, ask(turns, "flood", `flood ${n}`, started));
    asked.set("other 1", ask(turns, "other", "other 1", started));
    await settled();
    expect(started).toEqual(["flood 1"]);
    expect(turns.waiting).toBe(5);

    // The latest work granted finishes, each time; exactly one more is granted.
    for (let finished = 1; finished < asked.size; finished += 1) {
      (await asked.get(started.at(-1) ?? ""))?.finish();
      await settled();
      expect(started).toHaveLength(finished + 1);
    }
    expect(started).toEqual(["flood 1", "flood 2", "other 1", "flood 3", "flood 4", "flood 5"]);
    expect(turns.waiting).toBe(0);
  });

  it("runs no more than the process's turns at once, whichever keys ask", async () => {
    const turns = createFairTurns({ maxRunning: 2, maxHeldPerKey: 8, maxWaitingPerKey: 8 });
    const started: string[] = [];
    const running = await Promise.all(["a", "b"].map((key) => ask(turns, key, key, started)));
    const waiting = ask(turns, "c", "c", started);
    await settled();
    expect(started).toEqual(["a", "b"]);
    expect(turns.running).toBe(2);
    running[0]?.finish();
    await waiting;
    expect(started).toEqual(["a", "b", "c"]);
  });

  it("keeps a key's place until its answer is sent, while other keys run", async () => {
    const turns = createFairTurns({ maxRunning: 2, maxHeldPerKey: 1, maxWaitingPerKey: 8 });
    const started: string[] = [];
    const sending = await ask(turns, "slow reader", "slow 1", started);
    sending?.finish();
    const second = ask(turns, "slow reader", "slow 2", started);
    const other = await ask(turns, "other", "other", started);
    expect(started).toEqual(["slow 1", "other"]);
    expect(turns.waiting).toBe(1);
    other?.release();
    sending?.release();
    await second;
    expect(started).toEqual(["slow 1", "other", "slow 2"]);
    expect(turns.held).toBe(1);
  });

  it("refuses a key's request at once past its waiting bound, and not another key's", async () => {
    const turns = createFairTurns({ maxRunning: 1, maxHeldPerKey: 8, maxWaitingPerKey: 2 });
    const started: string[] = [];
    const first = await ask(turns, "flood", "flood 1", started);
    const waiting = [2, 3].map((n) => ask(turns, "flood", `flood ${n}`, started));
    expect(await turns.take("flood")).toBeNull();
    const other = ask(turns, "other", "other", started);
    expect(turns.waiting).toBe(3);
    first?.release();
    (await waiting[0])?.release();
    expect(await other).not.toBeNull();
    expect(started).toEqual(["flood 1", "flood 2", "other"]);
  });

  it("drops a request whose client gave up while it waited", async () => {
    const turns = createFairTurns({ maxRunning: 1, maxHeldPerKey: 8, maxWaitingPerKey: 1 });
    const started: string[] = [];
    const first = await ask(turns, "a", "a 1", started);
    const abandoned = new AbortController();
    const gone = ask(turns, "a", "a 2", started, abandoned.signal);
    abandoned.abort();
    expect(await gone).toBeNull();
    expect(turns.waiting).toBe(0);
    // Its place in the queue is free again.
    const next = ask(turns, "a", "a 3", started);
    first?.release();
    expect(await next).not.toBeNull();
    expect(started).toEqual(["a 1", "a 3"]);
  });
});
