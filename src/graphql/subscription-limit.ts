// The per-key cap on open `orderUpdated` subscriptions, a GraphQL concern
// kept beside the other limits on what one key may hold at once.
import type { Viewer } from "../auth/viewer.js";
import type { OrderUpdatedMessage } from "../domain/order-notifications.js";
import type { OrderUpdateFeed } from "../services/order-notifications.js";
import { refusal } from "./refusal.js";

/**
 * Caps the `orderUpdated` subscriptions one API key holds open in this
 * process; the next one is refused with CONCURRENCY_LIMIT_EXCEEDED (HTTP 429).
 * A slot is held from the moment a subscription is set up until its stream
 * ends or its request's `signal` aborts (the client went away), whichever
 * comes first: the executor drops, without ending it, a stream whose client
 * left while it was being set up, and a response body nobody reads is never
 * cancelled.
 */
export function limitSubscriptionsPerKey(feed: OrderUpdateFeed, maxPerKey: number) {
  const openByKey = new Map<string, number>();
  return (viewer: Viewer | null, signal?: AbortSignal): OrderUpdateFeed => {
    if (!viewer) return feed;
    const keyId = viewer.apiKeyId;
    return {
      close: () => feed.close(),
      async subscribe(accept) {
        // The client is already gone: nothing to listen for, no slot to take.
        if (signal?.aborted) return endedStream();
        const open = openByKey.get(keyId) ?? 0;
        if (open >= maxPerKey) {
          throw refusal(
            "CONCURRENCY_LIMIT_EXCEEDED",
            `This API key already has ${maxPerKey} open subscriptions; end one before opening another`,
            {},
            { status: 429 },
          );
        }
        openByKey.set(keyId, open + 1);
        const release = () => {
          const left = (openByKey.get(keyId) ?? 1) - 1;
          if (left > 0) openByKey.set(keyId, left);
          else openByKey.delete(keyId);
        };
        let stream: AsyncIterableIterator<OrderUpdatedMessage>;
        try {
          stream = await feed.subscribe(accept);
        } catch (error) {
          release();
          throw error;
        }
        if (!signal) return onceEnded(stream, release);
        // The slot is free before the stream's own ending runs; with the client gone, nobody hears of a failure there.
        const endOnAbort = () => void ending.return?.().catch(() => {});
        const ending = onceEnded(stream, () => {
          signal.removeEventListener("abort", endOnAbort);
          release();
        });
        if (signal.aborted) endOnAbort();
        else signal.addEventListener("abort", endOnAbort, { once: true });
        return ending;
      },
    };
  };
}

async function* endedStream(): AsyncIterableIterator<OrderUpdatedMessage> {}

/** The stream, calling `ended` once when it finishes or its consumer stops. */
function onceEnded<T>(stream: AsyncIterableIterator<T>, ended: () => void): AsyncIterableIterator<T> {
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      ended();
    }
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      const result = await stream.next();
      if (result.done) finish();
      return result;
    },
    async return(value?: unknown) {
      finish();
      return stream.return ? stream.return(value) : { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      finish();
      if (stream.throw) return stream.throw(error);
      throw error;
    },
  };
}
