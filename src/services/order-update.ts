import { randomUUID } from "node:crypto";
import type { Viewer } from "../auth/viewer.js";
import { Prisma, type PrismaClient } from "../db/generated/prisma/client.js";
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import { invalidTransition, notFound, preconditionFailed } from "../domain/errors.js";
import { orderUpdatedNotification } from "../domain/order-notifications.js";
import { canChangeOrderStatus, isPlacedStatus, nextOrderStatuses } from "../domain/order-status.js";

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
interface StoredOrder {
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

type Transaction = Prisma.TransactionClient;
type Queries = PrismaClient | Transaction;

/** How often an update without resource values is tried in one statement before it locks the order instead. */
const SINGLE_STATEMENT_ATTEMPTS = 3;

/**
 * Applies a buyer's change to one of its orders (docs/decisions.md §3 "Update order" and §5): checks the
 * status transition and the precondition, stamps `placed_at` when the order becomes placed, and
 * records what changed as an order event, all or nothing.
 *
 * Most updates are written by one autocommitted statement that applies only if the order row is still
 * the version that was read (else it is read and checked again). That statement also takes the buyer's
 * version row, which every write of the buyer queues for until commit; in one statement it is held
 * for no client round trip. An update of `resource_values` needs several statements: it runs in a
 * transaction with the order locked, as does an update that keeps losing the race.
 */
export async function updateOrder(
  prisma: PrismaClient,
  viewer: Viewer,
  orderId: string,
  changes: OrderChanges,
  precondition?: OrderPrecondition,
): Promise<OrderUpdate> {
  if (changes.resourceValues === undefined) {
    for (let attempt = 0; attempt < SINGLE_STATEMENT_ATTEMPTS; attempt++) {
      const current = await readOrder(prisma, viewer, orderId, false);
      const { data, log } = planChanges(current, changes, precondition);
      if (Object.keys(log).length === 0) return { changes: log, version: current.buyer_version ?? 0n };
      const version = await writeOrder(prisma, viewer, orderId, current, data, log, current.row_version);
      if (version !== null) return { changes: log, version };
    }
  }
  return prisma.$transaction(async (tx) => {
    let current = await readOrder(tx, viewer, orderId, true);
    // The lock is ours now, so a new statement's snapshot sees the update it waited for (READ COMMITTED).
    if (current.changed_since_snapshot) current = await readOrder(tx, viewer, orderId, true);
    const { data, log } = planChanges(current, changes, precondition);
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
    return { changes: log, version: (await writeOrder(tx, viewer, orderId, current, data, log, null)) ?? 0n };
  });
}

async function readOrder(db: Queries, viewer: Viewer, orderId: string, lock: boolean): Promise<StoredOrder> {
  // Locked, o is the row as locked, and the subquery reads it as of the statement's snapshot.
  const changedSinceSnapshot = lock
    ? Prisma.sql`o.xmin IS DISTINCT FROM (SELECT s.xmin FROM orders AS s WHERE s.id = o.id)`
    : Prisma.sql`false`;
  const [current] = await db.$queryRaw<StoredOrder[]>`
    SELECT o.order_status::text AS order_status, o.purchase_order_reference, o.supplier_order_reference,
           o.placed_at, o.xmin::text AS row_version, ${changedSinceSnapshot} AS changed_since_snapshot,
           (SELECT version FROM buyer_versions WHERE buyer_id = ${viewer.buyerId}::uuid) AS buyer_version,
           (SELECT coalesce(max(version), 0)::bigint FROM change_log
            WHERE buyer_id = ${viewer.buyerId}::uuid AND record_type = 'order' AND record_id = o.id) AS changed_at_version
    FROM orders AS o WHERE o.id = ${orderId}::uuid AND o.buyer_id = ${viewer.buyerId}::uuid
    ${lock ? Prisma.sql`FOR UPDATE OF o` : Prisma.empty}`;
  if (!current) throw notFound("Order");
  return current;
}

interface OrderWrite {
  orderStatus?: OrderStatus;
  purchaseOrderReference?: string | null;
  supplierOrderReference?: string | null;
  placedAt?: Date;
}

/** What the update changes, column by column, and its record for the order event; throws when it may not. */
function planChanges(
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

/**
 * Writes the order, its event and the buyer's version in one statement, and notifies; returns the
 * buyer version it produced, or null when `rowVersion` is given and the order row is no longer that
 * version (nothing is written then: `current` is stale). The change log's triggers fire at the statement's end and find
 * the version already bumped.
 */
async function writeOrder(
  db: Queries,
  viewer: Viewer,
  orderId: string,
  current: StoredOrder,
  data: OrderWrite,
  log: ChangeLog,
  rowVersion: string | null,
): Promise<bigint | null> {
  const eventId = randomUUID();
  const notification = orderUpdatedNotification({
    orderId,
    buyerId: viewer.buyerId,
    eventId,
    orderStatus: data.orderStatus ?? current.order_status,
  });
  const assignments = [
    Prisma.sql`updated_at = ${new Date()}::timestamptz`,
    ...(data.orderStatus ? [Prisma.sql`order_status = ${data.orderStatus}::"OrderStatus"`] : []),
    ...("purchaseOrderReference" in data
      ? [Prisma.sql`purchase_order_reference = ${data.purchaseOrderReference}`]
      : []),
    ...("supplierOrderReference" in data
      ? [Prisma.sql`supplier_order_reference = ${data.supplierOrderReference}`]
      : []),
    ...(data.placedAt ? [Prisma.sql`placed_at = ${data.placedAt}::timestamptz`] : []),
  ];
  const [written] = await db.$queryRaw<{ version: bigint | null }[]>`
    WITH updated AS (
      UPDATE orders SET ${Prisma.join(assignments)}
      WHERE id = ${orderId}::uuid ${rowVersion === null ? Prisma.empty : Prisma.sql`AND xmin = ${rowVersion}::xid`}
      RETURNING id),
    bumped AS (
      -- The change log triggers' bump (migration change_log_bump_once): once per transaction.
      INSERT INTO buyer_versions AS v (buyer_id, version, xact)
      SELECT ${viewer.buyerId}::uuid, 1, pg_current_xact_id()::text::bigint FROM updated
      ON CONFLICT (buyer_id) DO UPDATE SET version = v.version + 1, xact = excluded.xact
        WHERE v.xact <> excluded.xact
      RETURNING v.version),
    event AS (
      INSERT INTO order_events (id, order_id, buyer_id, api_key_id, actor, changes)
      SELECT ${eventId}::uuid, updated.id, ${viewer.buyerId}::uuid, ${viewer.apiKeyId}::uuid,
             ${`api_key:${viewer.apiKeyId}`}, ${JSON.stringify(log)}::jsonb
      FROM updated)
    SELECT pg_notify(${notification.channel}, ${notification.payload})::text AS notified,
           coalesce((SELECT version FROM bumped),
                    (SELECT version FROM buyer_versions WHERE buyer_id = ${viewer.buyerId}::uuid)) AS version
    FROM updated`;
  return written ? (written.version ?? 0n) : null;
}
