import type { PrismaClient } from "./generated/prisma/client.js";

/** One entry of `change_log`, as the triggers of the `change_log` migration write it. */
export interface ChangeLogEntry {
  seq: bigint;
  buyerId: string;
  /** order, buyer_product, buyer_product_approval, supplier_user, tagging, tag, tag_group, delivery_site, supplier_connection, buyer; shared data: supplier, product, order_type. */
  recordType: string;
  recordId: string;
  change: "created" | "updated" | "deleted";
  /** For "updated": the earlier values of the columns that changed, by column name. */
  previous: Record<string, unknown> | null;
  /** The buyer's version the writing transaction produced; entries of one transaction share it. */
  version: bigint;
  changedAt: Date;
}

/**
 * The record type the change log's triggers log a write of each table as:
 * the table's own, or its parent's for a record's list of resource values. A
 * table that is not here is not logged. `test/change-log/record-types.test.ts`
 * checks it against the triggers in the database.
 */
export const RECORD_TYPE_OF_TABLE: ReadonlyMap<string, string> = new Map([
  ["orders", "order"],
  ["order_resource_values", "order"],
  ["buyer_products", "buyer_product"],
  ["buyer_product_resource_values", "buyer_product"],
  ["buyer_product_approvals", "buyer_product_approval"],
  ["supplier_users", "supplier_user"],
  ["taggings", "tagging"],
  ["tags", "tag"],
  ["tag_groups", "tag_group"],
  ["delivery_sites", "delivery_site"],
  ["supplier_connections", "supplier_connection"],
  ["buyers", "buyer"],
  ["suppliers", "supplier"],
  ["products", "product"],
  ["order_types", "order_type"],
]);

/**
 * The buyer's current version: 0 before its first write, then bumped once by
 * every transaction that changes what the buyer can read.
 */
export async function buyerVersion(prisma: PrismaClient, buyerId: string): Promise<bigint> {
  const row = await prisma.buyerVersion.findUnique({ where: { buyerId }, select: { version: true } });
  return row?.version ?? 0n;
}

/** The buyer's entries after `afterSeq`, oldest first. */
export async function changesSince(
  prisma: PrismaClient,
  buyerId: string,
  afterSeq = 0n,
  take = 1000,
): Promise<ChangeLogEntry[]> {
  const rows = await prisma.changeLog.findMany({
    where: { buyerId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take,
  });
  return rows.map((row) => ({
    ...row,
    change: row.change as ChangeLogEntry["change"],
    previous: row.previous as Record<string, unknown> | null,
  }));
}
