// The event stream of one GraphQL subscription: events in order to a consumer
// that waits or comes later, a bounded backlog for a slow one, and an end
// (a client leaving) that releases a waiting consumer and cleans up once.
import { describe, expect, it } from "vitest";
import { SubscriptionQueue } from "../../src/db/subscription-queue.js";

function queue() {
  let ends = 0;
  const stream = new SubscriptionQueue<number>(async () => {
    ends += 1;
  });
  return { stream, ends: () => ends };
}

describe("a subscription's stream", () => {
  it("hands events in order, to a consumer already waiting and to one that comes later", async () => {
    const { stream } = queue();
    const waiting = stream.next();
    stream.push(1);
    stream.push(2);
    stream.push(3);
    expect(await waiting).toEqual({ value: 1, done: false });
    expect(await stream.next()).toEqual({ value: 2, done: false });
    expect(await stream.next()).toEqual({ value: 3, done: false });
  });

  it("keeps the newest events for a consumer that far behind, dropping the oldest; once ended, hands none of the rest", async () => {
    const { stream } = queue();
    for (let value = 1; value <= 1_005; value += 1) stream.push(value);
    expect(await stream.next()).toEqual({ value: 6, done: false });
    const rest: number[] = [];
    void stream.end();
    for await (const value of stream) rest.push(value);
    expect(rest).toEqual([]);
  });

  it("ends a consumer waiting for the next event, and cleans up once however often it is ended", async () => {
    const { stream, ends } = queue();
    const waiting = stream.next();
    await stream.end();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    await stream.end();
    expect(ends()).toBe(1);
    stream.push(7);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("ends when a for-await loop leaves it", async () => {
    const { stream, ends } = queue();
    stream.push(1);
    stream.push(2);
    for await (const value of stream) {
      expect(value).toBe(1);
      break;
    }
    expect(ends()).toBe(1);
  });
});
