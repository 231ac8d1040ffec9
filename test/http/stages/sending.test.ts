// The sending stage ends an expensive request's turn once its answer is made: the next
// waiting request starts only after the answer has been coded, not when its data is read
// (src/http/stages/sending.ts, src/http/expensive-work.ts). Told by the order of grants.
import { describe, expect, it } from "vitest";
import { createExpensiveWork, type ExpensiveSlot } from "../../../src/http/expensive-work.js";
import { countSending } from "../../../src/http/stages/sending.js";
import { exchangeFor } from "./exchange.js";

/** Lets granted turns' callbacks run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the sending stage", () => {
  it("holds an expensive request's turn until its answer is made, then lets the next waiting one run", async () => {
    const work = createExpensiveWork({
      maxRunning: 1,
      maxHeldPerKey: 2,
      maxWaitingPerKey: 4,
      maxSendingBytesPerKey: 2 ** 30,
    });
    const exchange = exchangeFor("/api/other");
    let next: ExpensiveSlot | null = null;
    let grantedWhileMaking = true;
    const response = await countSending(work)(exchange, async () => {
      const slot = await work.take("flood");
      // The work is done and its turn released; another key's request asks for a turn.
      slot?.release(exchange);
      void work.take("other").then((granted) => {
        next = granted;
      });
      await settled();
      grantedWhileMaking = next !== null;
      // Making the answer: coding it is work that holds the turn.
      return new Response(JSON.stringify({ items: "x".repeat(100_000) }), {
        headers: { "content-type": "application/json" },
      });
    });
    expect(grantedWhileMaking).toBe(false);
    await settled();
    expect(next).not.toBeNull();
    expect(response.status).toBe(200);
    expect(work.waiting).toBe(0);
  });
});
