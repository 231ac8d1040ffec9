// Order changes are announced with PostgreSQL NOTIFY so that every server
// process sharing the database can tell its own subscribers, whichever
// process made the change: the message, how it is sent, and the feed that
// LISTENs for it.
import type { Database } from "../db/database.js";
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import { OrderStatus as OrderStatuses } from "../db/generated/prisma/enums.js";
import { SubscriptionQueue } from "../db/subscription-queue.js";

export const ORDER_UPDATED_CHANNEL = "order_updated";

/** Identifiers only: subscribers re-read what they select, scoped to their buyer. */
export interface OrderUpdatedMessage {
  orderId: string;
  buyerId: string;
  /** The order event recording the change. */
  eventId: string;
  /** The status after the change. */
  orderStatus: OrderStatus;
}

/** The NOTIFY announcing a change; send it inside the updating transaction, so it is delivered only on commit. */
export function orderUpdatedNotification(message: OrderUpdatedMessage): { channel: string; payload: string } {
  return { channel: ORDER_UPDATED_CHANNEL, payload: JSON.stringify(message) };
}

const STATUSES = new Set<string>(Object.values(OrderStatuses));

/** The message in a NOTIFY payload, or null for anything this version did not send. */
export function parseOrderUpdatedMessage(payload: string): OrderUpdatedMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { orderId, buyerId, eventId, orderStatus } = value as Record<string, unknown>;
  if (
    typeof orderId !== "string" ||
    typeof buyerId !== "string" ||
    typeof eventId !== "string" ||
    typeof orderStatus !== "string" ||
    !STATUSES.has(orderStatus)
  ) {
    return null;
  }
  return { orderId, buyerId, eventId, orderStatus: orderStatus as OrderStatus };
}

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
