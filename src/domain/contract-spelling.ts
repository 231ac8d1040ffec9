/**
 * Prisma enum values that cannot hold the contract's spelling (a space) and
 * the spelling the contract and the database use for them.
 */
const CONTRACT_SPELLING: Record<string, string> = { RawMaterial: "Raw Material", BulkBag: "Bulk Bag" };

/** The contract's (and the database's) spelling of a Prisma enum value. */
export function contractSpelling(prismaEnumValue: string): string {
  return CONTRACT_SPELLING[prismaEnumValue] ?? prismaEnumValue;
}
