// Order changes are announced with PostgreSQL NOTIFY so that every server
// process sharing the database can tell its own subscribers, whichever
// process made the change: the message and its channel. The feed that
// LISTENs for it is src/services/order-notifications.ts.
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import { OrderStatus as OrderStatuses } from "../db/generated/prisma/enums.js";

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
