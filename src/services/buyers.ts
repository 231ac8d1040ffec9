// Buyer organisations as the operator creates them.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/prisma/client.js";

/** Creates a buyer organisation; its id. */
export async function createBuyer(prisma: PrismaClient, name: string): Promise<string> {
  const buyer = await prisma.buyer.create({ data: { id: randomUUID(), name }, select: { id: true } });
  return buyer.id;
}
