import { OrderStatus } from "../db/generated/prisma/enums.js";

// docs/design/decisions.md §5 "Order status transitions": stages in order; the logistics statuses share one stage
// and may follow each other in any order.
const STAGE: Record<OrderStatus, number> = {
  quote_selected: 0,
  order_placed: 1,
  order_confirmed: 2,
  shipped: 3,
  in_transit: 3,
  in_port: 3,
  in_warehouse: 3,
  delivered: 4,
};

/** In the contract's order, as every list of statuses is written. */
const ALL_STATUSES: readonly OrderStatus[] = Object.values(OrderStatus);

/** Setting the current status again is allowed (a no-op). */
export function canChangeOrderStatus(from: OrderStatus, to: OrderStatus): boolean {
  if (from === to) return true;
  if (from === "delivered") return false;
  return STAGE[to] >= STAGE[from];
}

/** The statuses an order may move to next, in the contract's order. */
export function nextOrderStatuses(from: OrderStatus): OrderStatus[] {
  return ALL_STATUSES.filter((status) => status !== from && canChangeOrderStatus(from, status));
}

/** From `order_placed` on, an order has been placed. */
export function isPlacedStatus(status: OrderStatus): boolean {
  return STAGE[status] >= STAGE.order_placed;
}
