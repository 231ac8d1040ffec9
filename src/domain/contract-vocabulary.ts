// The contract's spelling of every enum value, which is also what the database
// stores. The GraphQL enums record it for the REST adapter, the import checks
// files against it, and auto-match compares product types in it.
import {
  ApprovalStatus,
  type ContainerType,
  DocumentType,
  MeasurementUnit,
  OrderStatus,
  PriceType,
  type ProductType,
} from "../db/generated/prisma/enums.js";

// Prisma enum values are identifiers, so a contract value with a space is
// spelled without it there. These two enums hold such values; each is written
// out in full so that a value added to schema.prisma fails the type check here
// until its spelling is decided.
const PRODUCT_TYPE_SPELLING: Record<ProductType, string> = {
  Dye: "Dye",
  Fragrance: "Fragrance",
  Other: "Other",
  Packaging: "Packaging",
  RawMaterial: "Raw Material",
};

const CONTAINER_TYPE_SPELLING: Record<ContainerType, string> = {
  Bag: "Bag",
  Bottle: "Bottle",
  Bulk: "Bulk",
  BulkBag: "Bulk Bag",
  Drum: "Drum",
  Flexibag: "Flexibag",
  IBC: "IBC",
  ISOTank: "ISOTank",
  Pail: "Pail",
  Sample: "Sample",
  Tanker: "Tanker",
  Unit: "Unit",
};

const SPELLING: Record<string, string> = { ...PRODUCT_TYPE_SPELLING, ...CONTAINER_TYPE_SPELLING };

/** The contract's (and the database's) spelling of a Prisma enum value. */
export function contractSpelling(prismaEnumValue: string): string {
  return SPELLING[prismaEnumValue] ?? prismaEnumValue;
}

/** Every value of each contract enum, as the contract spells it. */
export const MEASUREMENT_UNITS: readonly string[] = Object.values(MeasurementUnit);
export const PRODUCT_TYPES: readonly string[] = Object.values(PRODUCT_TYPE_SPELLING);
export const CONTAINER_TYPES: readonly string[] = Object.values(CONTAINER_TYPE_SPELLING);
export const DOCUMENT_TYPES: readonly string[] = Object.values(DocumentType);
export const PRICE_TYPES: readonly string[] = Object.values(PriceType);
export const ORDER_STATUSES: readonly string[] = Object.values(OrderStatus);
export const APPROVAL_STATUSES: readonly string[] = Object.values(ApprovalStatus);
