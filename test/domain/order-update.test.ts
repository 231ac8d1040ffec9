// An order update's rules (docs/design/decisions.md, "Update order" and "5. Order status
// transitions") as plain inputs and outputs: what a change writes and records,
// and what it refuses. The service that reads and writes is tested in
// test/services/order-update-and-tagging.test.ts.
import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../src/db/generated/prisma/enums.js";
import { DomainError } from "../../src/domain/errors.js";
import { planChanges, type StoredOrder } from "../../src/domain/order-update.js";

const PLACED_AT = new Date("2025-01-02T00:00:00Z");

function stored(fields: Partial<StoredOrder> = {}): StoredOrder {
  return {
    order_status: "order_placed",
    purchase_order_reference: "PO-1",
    supplier_order_reference: null,
    placed_at: PLACED_AT,
    row_version: "100",
    changed_since_snapshot: false,
    buyer_version: 7n,
    changed_at_version: 5n,
    ...fields,
  };
}

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("the change was not refused");
}

describe("what an update writes", () => {
  it("writes and records only the fields that change", () => {
    const plan = planChanges(
      stored(),
      { orderStatus: "order_confirmed", purchaseOrderReference: "PO-1", supplierOrderReference: "S-9" },
      undefined,
    );
    expect(plan.data).toEqual({ orderStatus: "order_confirmed", supplierOrderReference: "S-9" });
    expect(plan.log).toEqual({
      order_status: { from: "order_placed", to: "order_confirmed" },
      supplier_order_reference: { from: null, to: "S-9" },
    });
  });

  it("writes nothing when every field is as stored", () => {
    expect(
      planChanges(stored(), { orderStatus: "order_placed", purchaseOrderReference: "PO-1" }, undefined),
    ).toEqual({ data: {}, log: {} });
  });

  it("clears a reference set to null", () => {
    const plan = planChanges(stored(), { purchaseOrderReference: null }, undefined);
    expect(plan.data).toEqual({ purchaseOrderReference: null });
    expect(plan.log).toEqual({ purchase_order_reference: { from: "PO-1", to: null } });
  });

  it("stamps placed_at when an order that was never placed is placed", () => {
    const before = Date.now();
    const plan = planChanges(
      stored({ order_status: "quote_selected", placed_at: null }),
      { orderStatus: "order_placed" },
      undefined,
    );
    const placedAt = plan.data.placedAt?.getTime() ?? 0;
    expect(placedAt).toBeGreaterThanOrEqual(before);
    expect(plan.log.placed_at).toEqual({ from: null, to: plan.data.placedAt?.toISOString() });
  });

  it("keeps the placed_at an order already has when its status moves on", () => {
    const plan = planChanges(stored(), { orderStatus: "shipped" }, undefined);
    expect(plan.data).toEqual({ orderStatus: "shipped" });
  });

  it("takes a placed_at given with the change, and records it in ISO form", () => {
    const placedAt = new Date("2025-03-04T05:06:07Z");
    const plan = planChanges(stored(), { placedAt }, undefined);
    expect(plan.data).toEqual({ placedAt });
    expect(plan.log.placed_at).toEqual({ from: PLACED_AT.toISOString(), to: "2025-03-04T05:06:07.000Z" });
  });
});

describe("what an update refuses", () => {
  it.each<[OrderStatus, OrderStatus]>([
    ["delivered", "shipped"],
    ["shipped", "order_confirmed"],
    ["order_confirmed", "quote_selected"],
  ])("%s → %s, naming the statuses allowed instead", (from, to) => {
    const error = refusal(() => planChanges(stored({ order_status: from }), { orderStatus: to }, undefined));
    expect(error.code).toBe("INVALID_TRANSITION");
    expect(error.transition).toEqual({ from, to });
    expect(error.allowedStatuses).not.toContain(to);
    if (from === "delivered") expect(error.message).toMatch(/it is final$/);
  });

  it("a precondition whose versions are all before the order's last change", () => {
    const error = refusal(() =>
      planChanges(stored(), { orderStatus: "shipped" }, { kind: "versions", versions: [3n, 4n] }),
    );
    expect(error.code).toBe("PRECONDITION_FAILED");
  });

  it("a precondition naming a version the buyer has not reached", () => {
    const error = refusal(() => planChanges(stored(), {}, { kind: "versions", versions: [8n] }));
    expect(error.code).toBe("PRECONDITION_FAILED");
  });

  it("an empty list of versions, which never holds", () => {
    expect(refusal(() => planChanges(stored(), {}, { kind: "versions", versions: [] })).code).toBe(
      "PRECONDITION_FAILED",
    );
  });
});

describe("preconditions that hold", () => {
  it.each([5n, 6n, 7n])("a version at or after the last change and not beyond the buyer's: %s", (version) => {
    const plan = planChanges(
      stored(),
      { orderStatus: "shipped" },
      { kind: "versions", versions: [1n, version] },
    );
    expect(plan.data).toEqual({ orderStatus: "shipped" });
  });

  it("any, for any existing order", () => {
    expect(planChanges(stored(), { orderStatus: "shipped" }, { kind: "any" }).data).toEqual({
      orderStatus: "shipped",
    });
  });

  it("a version 0 on an order never changed since the change log began, when the buyer has no version", () => {
    const order = stored({ buyer_version: null, changed_at_version: 0n });
    expect(planChanges(order, {}, { kind: "versions", versions: [0n] })).toEqual({ data: {}, log: {} });
  });
});
