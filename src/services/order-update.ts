import { randomUUID } from "node:crypto";
import type { Viewer } from "../auth/viewer.js";
import { Prisma, type PrismaClient } from "../db/generated/prisma/client.js";
import { notFound } from "../domain/errors.js";
import { orderUpdatedNotification } from "../domain/order-notifications.js";
import {
  type ChangeLog,
  type OrderChanges,
  type OrderPrecondition,
  type OrderUpdate,
  type OrderWrite,
  planChanges,
  type StoredOrder,
} from "../domain/order-update.js";

type Transaction = Prisma.TransactionClient;
type Queries = PrismaClient | Transaction;

/** How often an update without resource values is tried in one statement before it locks the order instead. */
const SINGLE_STATEMENT_ATTEMPTS = 3;

/**
 * Applies a buyer's change to one of its orders (docs/design/decisions.md §3 "Update order" and §5): checks the
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
