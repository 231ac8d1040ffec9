// The contract's enum spellings, which are also what the database stores.
// Each list is typed against the Prisma enum so that a value added to
// schema.prisma fails the type check here until the import accepts it too.
import {
  ApprovalStatus,
  type ContainerType,
  DocumentType,
  MeasurementUnit,
  OrderStatus,
  PriceType,
  type ProductType,
} from "../db/generated/prisma/enums.js";

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

export const MEASUREMENT_UNITS: readonly string[] = Object.values(MeasurementUnit);
export const PRODUCT_TYPES: readonly string[] = Object.values(PRODUCT_TYPE_SPELLING);
export const CONTAINER_TYPES: readonly string[] = Object.values(CONTAINER_TYPE_SPELLING);
export const DOCUMENT_TYPES: readonly string[] = Object.values(DocumentType);
export const PRICE_TYPES: readonly string[] = Object.values(PriceType);
export const ORDER_STATUSES: readonly string[] = Object.values(OrderStatus);
export const APPROVAL_STATUSES: readonly string[] = Object.values(ApprovalStatus);
