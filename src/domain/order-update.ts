// An order update's rules (docs/design/decisions.md §3 "Update order" and §5): what a
// buyer's change writes, checked against the order as stored and the
// precondition. The service (src/services/order-update.ts) reads and writes.
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import { invalidTransition, preconditionFailed } from "./errors.js";
import { canChangeOrderStatus, isPlacedStatus, nextOrderStatuses } from "./order-status.js";

export interface ResourceValue {
  provider: string;
  value: string;
}

/** Absent fields are left alone; the two references may be null to clear them. */
export interface OrderChanges {
  orderStatus?: OrderStatus;
  purchaseOrderReference?: string | null;
  supplierOrderReference?: string | null;
  placedAt?: Date;
  resourceValues?: ResourceValue[];
}

export type ChangeLog = Record<string, { from: unknown; to: unknown }>;

/**
 * An update's precondition (If-Match, docs/design/decisions.md §9): `any` holds for
 * any existing order; `versions` holds when one of these buyer versions is at
 * or after the order's last change and not beyond the buyer's current
 * version: a version at which a read showed the order as it is now. An empty
 * list never holds.
 */
export type OrderPrecondition = { kind: "any" } | { kind: "versions"; versions: readonly bigint[] };

export interface OrderUpdate {
  /** What changed, as the order event records it; empty when nothing did. */
  changes: ChangeLog;
  /** The buyer's data version once this update is committed (unchanged when nothing changed). */
  version: bigint;
}

/** The order as a write reads it, with what its preconditions are checked against. */
export interface StoredOrder {
  order_status: OrderStatus;
  purchase_order_reference: string | null;
  supplier_order_reference: string | null;
  placed_at: Date | null;
  /** The row version (`xmin`): every write to the order row changes it. */
  row_version: string;
  /**
   * Whether a locking read got a row changed after its statement's snapshot:
   * having waited for another update's lock, it reads that update's row, but
   * everything else (the versions below) as of before it. Always false unlocked.
   */
  changed_since_snapshot: boolean;
  /** The buyer's data version as this statement saw it. */
  buyer_version: bigint | null;
  /** The buyer version at which the order last changed (0 if never since the change log began). */
  changed_at_version: bigint;
}

/** The columns an update writes. */
export interface OrderWrite {
  orderStatus?: OrderStatus;
  purchaseOrderReference?: string | null;
  supplierOrderReference?: string | null;
  placedAt?: Date;
}

/** What the update changes, column by column, and its record for the order event; throws when it may not. */
export function planChanges(
  current: StoredOrder,
  changes: OrderChanges,
  precondition: OrderPrecondition | undefined,
): { data: OrderWrite; log: ChangeLog } {
  const currentVersion = current.buyer_version ?? 0n;
  if (
    precondition?.kind === "versions" &&
    !precondition.versions.some(
      (version) => current.changed_at_version <= version && version <= currentVersion,
    )
  ) {
    throw preconditionFailed("The order changed since the ETag given in If-Match; read it again");
  }

  const log: ChangeLog = {};
  const data: OrderWrite = {};
  if (changes.orderStatus !== undefined && changes.orderStatus !== current.order_status) {
    if (!canChangeOrderStatus(current.order_status, changes.orderStatus)) {
      throw invalidTransition(
        current.order_status,
        changes.orderStatus,
        nextOrderStatuses(current.order_status),
      );
    }
    data.orderStatus = changes.orderStatus;
    log.order_status = { from: current.order_status, to: changes.orderStatus };
  }
  for (const [field, column] of [
    ["purchaseOrderReference", "purchase_order_reference"],
    ["supplierOrderReference", "supplier_order_reference"],
  ] as const) {
    const next = changes[field];
    if (next !== undefined && next !== current[column]) {
      data[field] = next;
      log[column] = { from: current[column], to: next };
    }
  }
  let placedAt = changes.placedAt;
  if (placedAt === undefined && data.orderStatus && isPlacedStatus(data.orderStatus) && !current.placed_at) {
    placedAt = new Date();
  }
  if (placedAt !== undefined && placedAt.getTime() !== current.placed_at?.getTime()) {
    data.placedAt = placedAt;
    log.placed_at = { from: current.placed_at?.toISOString() ?? null, to: placedAt.toISOString() };
  }
  return { data, log };
}
