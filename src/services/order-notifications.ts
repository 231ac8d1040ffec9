// The feed of order changes: LISTENs on the channel the order update NOTIFYs,
// so every server process tells its own subscribers of changes made by any.
import type { Database } from "../db/database.js";
import { SubscriptionQueue } from "../db/subscription-queue.js";
import {
  ORDER_UPDATED_CHANNEL,
  type OrderUpdatedMessage,
  parseOrderUpdatedMessage,
} from "../domain/order-notifications.js";

/** Order changes from every process sharing the database, for GraphQL subscriptions. */
export interface OrderUpdateFeed {
  /**
   * Resolves once listening, so no change committed after that is missed;
   * yields the changes `accept` lets through until the stream is ended.
   */
  subscribe(
    accept: (message: OrderUpdatedMessage) => boolean,
  ): Promise<AsyncIterableIterator<OrderUpdatedMessage>>;
  /** Ends every open subscription, for a graceful shutdown. */
  close(): Promise<void>;
}

export function createOrderUpdateFeed(database: Pick<Database, "listen">): OrderUpdateFeed {
  const open = new Set<SubscriptionQueue<OrderUpdatedMessage>>();
  let closed = false;
  return {
    async subscribe(accept) {
      if (closed) throw new Error("The server is shutting down");
      let stopListening: (() => Promise<void>) | null = null;
      const queue = new SubscriptionQueue<OrderUpdatedMessage>(async () => {
        open.delete(queue);
        await stopListening?.();
      });
      stopListening = await database.listen(ORDER_UPDATED_CHANNEL, (payload) => {
        const message = parseOrderUpdatedMessage(payload);
        if (message && accept(message)) queue.push(message);
      });
      open.add(queue);
      return queue;
    },
    async close() {
      closed = true;
      await Promise.all([...open].map((queue) => queue.end()));
    },
  };
}
