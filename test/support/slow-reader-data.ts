// The data the slow-reader tests read: one buyer's page of orders far larger
// than the sockets' buffers take unread, and a neighbour with a few of them.
import type { Database } from "../../src/db/database.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "./seed.js";

/** 500 orders of about 25 KB: a page of them is far more than the sockets' buffers take unread. */
export const ORDER_COUNT = 500;
export const REFERENCE_LENGTH = 25_000;

/** "Slow Reader" with ORDER_COUNT orders of about REFERENCE_LENGTH bytes each, and "Neighbour" with ten of them. */
export async function seedSlowReaders(
  database: Database,
): Promise<{ buyer: SeededBuyer; other: SeededBuyer }> {
  const buyer = await seedBuyer(database, "Slow Reader");
  const other = await seedBuyer(database, "Neighbour");
  const orders = Array.from({ length: ORDER_COUNT }, (_, index) => ({
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
    purchaseOrderReference: `PO-${"x".repeat(REFERENCE_LENGTH)}-${index}`,
  }));
  await seedOrders(database, buyer, orders);
  await seedOrders(database, other, orders.slice(0, 10));
  return { buyer, other };
}
