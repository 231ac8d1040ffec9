// Creating a user under a supplier the buyer is connected to.
import { randomUUID } from "node:crypto";
import { Prisma, type PrismaClient } from "../db/generated/prisma/client.js";
import { alreadyExists, notFound } from "../domain/errors.js";

/** A checked supplier user to create. */
export interface NewSupplierUser {
  supplierId: string;
  firstName: string;
  lastName: string;
  contactEmail: string;
}

/**
 * Creates the user for `buyerId` and answers its id. Refuses a supplier the
 * buyer is not connected to (NOT_FOUND) and an email the supplier already has
 * a user with, compared case-insensitively (ALREADY_EXISTS).
 */
export async function createSupplierUser(
  prisma: PrismaClient,
  buyerId: string,
  user: NewSupplierUser,
): Promise<string> {
  const connection = await prisma.supplierConnection.findUnique({
    where: { buyerId_supplierId: { buyerId, supplierId: user.supplierId } },
    select: { supplierId: true },
  });
  if (!connection) throw notFound("Supplier");

  try {
    const id = randomUUID();
    await prisma.supplierUser.create({
      select: { id: true },
      data: { id, ...user, contactEmailKey: user.contactEmail.toLowerCase(), createdByBuyerId: buyerId },
    });
    return id;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw alreadyExists("A user with this email already exists under this supplier");
    }
    throw error;
  }
}
