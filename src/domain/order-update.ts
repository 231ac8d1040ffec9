import { randomUUID } from "node:crypto";
import type { Viewer } from "../auth/viewer.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import { invalidTransition, notFound, preconditionFailed } from "./errors.js";
import { orderUpdatedNotification } from "./order-notifications.js";
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

type ChangeLog = Record<string, { from: unknown; to: unknown }>;

/**
 * An update's precondition (If-Match, docs/decisions.md §9): `any` holds for
 * any existing order; `versions` holds when the order has not changed after
 * one of these buyer versions. An empty list never holds.
 */
export type OrderPrecondition = { kind: "any" } | { kind: "versions"; versions: readonly bigint[] };

export interface OrderUpdate {
  /** What changed, as the order event records it; empty when nothing did. */
  changes: ChangeLog;
  /** The buyer's data version once this update is committed (unchanged when nothing changed). */
  version: bigint;
}

interface LockedOrder {
  order_status: OrderStatus;
  purchase_order_reference: string | null;
  supplier_order_reference: string | null;
  placed_at: Date | null;
  /** The buyer's data version as this statement saw it. */
  buyer_version: bigint | null;
}

/**
 * Applies a buyer's change to one of its orders (docs/decisions.md §3 "Update order" and §5): checks the
 * status transition, stamps `placed_at` when the order becomes placed, and
 * records what changed as an order event, all in one transaction with the
 * order row locked so that concurrent updates cannot interleave. A
 * precondition is checked with the order locked, so two updates holding the
 * same tag cannot both pass it.
 */
export async function updateOrder(
  prisma: PrismaClient,
  viewer: Viewer,
  orderId: string,
  changes: OrderChanges,
  precondition?: OrderPrecondition,
): Promise<OrderUpdate> {
  return prisma.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<LockedOrder[]>`
      SELECT order_status::text AS order_status, purchase_order_reference, supplier_order_reference, placed_at,
             (SELECT version FROM buyer_versions WHERE buyer_id = ${viewer.buyerId}::uuid) AS buyer_version
      FROM orders WHERE id = ${orderId}::uuid AND buyer_id = ${viewer.buyerId}::uuid FOR UPDATE`;
    if (!current) throw notFound("Order");
    if (precondition?.kind === "versions") {
      const [latest] = await tx.$queryRaw<{ version: bigint }[]>`
        SELECT coalesce(max(version), 0)::bigint AS version FROM change_log
        WHERE buyer_id = ${viewer.buyerId}::uuid AND record_type = 'order' AND record_id = ${orderId}::uuid`;
      const changedAt = latest?.version ?? 0n;
      if (!precondition.versions.some((version) => changedAt <= version)) {
        throw preconditionFailed("The order changed since the ETag given in If-Match; read it again");
      }
    }

    const log: ChangeLog = {};
    const data: {
      orderStatus?: OrderStatus;
      purchaseOrderReference?: string | null;
      supplierOrderReference?: string | null;
      placedAt?: Date;
    } = {};

    if (changes.orderStatus !== undefined && changes.orderStatus !== current.order_status) {
      if (!canChangeOrderStatus(current.order_status, changes.orderStatus)) {
        const allowed = nextOrderStatuses(current.order_status);
        throw invalidTransition(
          `An order cannot move from ${current.order_status} to ${changes.orderStatus}` +
            (allowed.length ? `; allowed next statuses: ${allowed.join(", ")}` : "; it is final"),
          allowed,
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
    if (
      placedAt === undefined &&
      data.orderStatus &&
      isPlacedStatus(data.orderStatus) &&
      !current.placed_at
    ) {
      placedAt = new Date();
    }
    if (placedAt !== undefined && placedAt.getTime() !== current.placed_at?.getTime()) {
      data.placedAt = placedAt;
      log.placed_at = { from: current.placed_at?.toISOString() ?? null, to: placedAt.toISOString() };
    }

    if (changes.resourceValues !== undefined) {
      const before = await tx.orderResourceValue.findMany({
        where: { orderId },
        orderBy: { position: "asc" },
        select: { provider: true, value: true },
      });
      if (JSON.stringify(before) !== JSON.stringify(changes.resourceValues)) {
        await tx.orderResourceValue.deleteMany({ where: { orderId } });
        await tx.orderResourceValue.createMany({
          data: changes.resourceValues.map((item, position) => ({ orderId, position, ...item })),
        });
        log.resource_values = { from: before, to: changes.resourceValues };
      }
    }

    if (Object.keys(log).length === 0) return { changes: log, version: current.buyer_version ?? 0n };
    await tx.order.update({ where: { id: orderId }, data: { ...data, updatedAt: new Date() } });
    const eventId = randomUUID();
    await tx.orderEvent.create({
      data: {
        id: eventId,
        orderId,
        buyerId: viewer.buyerId,
        apiKeyId: viewer.apiKeyId,
        actor: `api_key:${viewer.apiKeyId}`,
        changes: log as object,
      },
    });
    const notification = orderUpdatedNotification({
      orderId,
      buyerId: viewer.buyerId,
      eventId,
      orderStatus: data.orderStatus ?? current.order_status,
    });
    // The version this transaction produced (the change log's triggers moved it on), read in the same statement.
    const [notified] = await tx.$queryRaw<{ version: bigint | null }[]>`
      SELECT pg_notify(${notification.channel}, ${notification.payload})::text AS notified,
             (SELECT version FROM buyer_versions WHERE buyer_id = ${viewer.buyerId}::uuid) AS version`;
    return { changes: log, version: notified?.version ?? 0n };
  });
}
