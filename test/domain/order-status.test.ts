// Order status transitions (docs/design/decisions.md, "5. Order status transitions")
// as a table, without HTTP: forward by any number of stages, sideways among
// the logistics statuses, never backward and never out of delivered.
import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../src/db/generated/prisma/enums.js";
import { canChangeOrderStatus, isPlacedStatus, nextOrderStatuses } from "../../src/domain/order-status.js";

const LOGISTICS: OrderStatus[] = ["in_transit", "in_warehouse", "shipped", "in_port"];

/** Every status an order may move to from each status, in the order a 409 lists them (the contract's). */
const ALLOWED_NEXT: Record<OrderStatus, OrderStatus[]> = {
  quote_selected: ["order_placed", "order_confirmed", ...LOGISTICS, "delivered"],
  order_placed: ["order_confirmed", ...LOGISTICS, "delivered"],
  order_confirmed: [...LOGISTICS, "delivered"],
  in_transit: ["in_warehouse", "shipped", "in_port", "delivered"],
  in_warehouse: ["in_transit", "shipped", "in_port", "delivered"],
  shipped: ["in_transit", "in_warehouse", "in_port", "delivered"],
  in_port: ["in_transit", "in_warehouse", "shipped", "delivered"],
  delivered: [],
};

const STATUSES = Object.keys(ALLOWED_NEXT) as OrderStatus[];
const PAIRS = STATUSES.flatMap((from) => STATUSES.map((to) => ({ from, to })));

describe("order status transitions", () => {
  it.each(PAIRS)("$from → $to", ({ from, to }) => {
    const allowed = from === to || ALLOWED_NEXT[from].includes(to);
    expect(canChangeOrderStatus(from, to)).toBe(allowed);
  });

  it.each(STATUSES)("the allowed next statuses from %s are listed in the contract's order", (from) => {
    expect(nextOrderStatuses(from)).toEqual(ALLOWED_NEXT[from]);
  });

  it("delivered is final: it cannot go back to shipped or anywhere else", () => {
    expect(canChangeOrderStatus("delivered", "shipped")).toBe(false);
    expect(nextOrderStatuses("delivered")).toEqual([]);
  });

  it("setting the current status again is allowed, even for delivered", () => {
    for (const status of STATUSES) expect(canChangeOrderStatus(status, status)).toBe(true);
  });

  it("an order counts as placed from order_placed on", () => {
    expect(STATUSES.filter(isPlacedStatus)).toEqual(STATUSES.filter((status) => status !== "quote_selected"));
  });
});
