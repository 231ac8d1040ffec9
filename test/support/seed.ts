import { randomUUID } from "node:crypto";
import { generateApiKey, hashApiKey, visibleKeyPrefix } from "../../src/auth/api-key-format.js";
import type { Viewer } from "../../src/auth/viewer.js";
import type { Database } from "../../src/db/database.js";
import { normalizeProductCode, normalizeProductName } from "../../src/domain/product-identity.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/** A buyer with a key, a connected supplier, a delivery site, an approval and an order type. */
export interface SeededBuyer {
  buyerId: string;
  apiKey: string;
  apiKeyId: string;
  supplierId: string;
  unconnectedSupplierId: string;
  /** The catalogue product ("Glycerin", code GLY-1, CAS 56-81-5, synonym Glycerol) of the buyer product. */
  productId: string;
  buyerProductId: string;
  approvalId: string;
  deliverySiteId: string;
  orderTypeId: string;
  tagGroupId: string;
  tagIds: string[];
}

export async function seedBuyer(database: Database, name = "Buyer"): Promise<SeededBuyer> {
  const { prisma } = database;
  const buyerId = randomUUID();
  const apiKey = generateApiKey();
  const apiKeyId = randomUUID();
  const supplierId = randomUUID();
  const unconnectedSupplierId = randomUUID();
  const productId = randomUUID();
  const buyerProductId = randomUUID();
  const approvalId = randomUUID();
  const deliverySiteId = randomUUID();
  const orderTypeId = randomUUID();
  const tagGroupId = randomUUID();
  const tagIds = [randomUUID(), randomUUID(), randomUUID()];
  await prisma.buyer.create({ data: { id: buyerId, name } });
  await prisma.apiKey.create({
    data: { id: apiKeyId, buyerId, hash: hashApiKey(apiKey), prefix: visibleKeyPrefix(apiKey), name: "test" },
  });
  await prisma.supplier.createMany({
    data: [
      { id: supplierId, name: `${name} Supplier` },
      { id: unconnectedSupplierId, name: `${name} Stranger` },
    ],
  });
  await prisma.supplierConnection.create({
    data: { buyerId, supplierId, relationship: "approved_supplier" },
  });
  await prisma.product.create({
    data: {
      id: productId,
      name: "Glycerin",
      normalizedName: normalizeProductName("Glycerin"),
      code: "GLY-1",
      normalizedCode: normalizeProductCode("GLY-1"),
      casNumber: "56-81-5",
      synonyms: ["Glycerol"],
      normalizedSynonyms: ["glycerol"],
      productType: "RawMaterial",
    },
  });
  await prisma.buyerProduct.create({
    data: {
      id: buyerProductId,
      buyerId,
      productId,
      rawMaterialName: "Glycerine USP",
      measurementUnit: "kg",
      productType: "RawMaterial",
    },
  });
  await prisma.buyerProductApproval.create({
    data: {
      id: approvalId,
      buyerId,
      buyerProductId,
      supplierId,
      approvalStatus: "approved",
      supplierName: `${name} Supplier`,
      reference: "APP-1",
    },
  });
  await prisma.deliverySite.create({
    data: {
      id: deliverySiteId,
      buyerId,
      siteName: "Main Plant",
      addressStreet: "1 Factory Rd",
      addressCity: "Dandenong",
      addressState: "VIC",
      addressPostcode: "3175",
      addressCountry: "AU",
      addressFullAddress: "1 Factory Rd, Dandenong VIC 3175, AU",
    },
  });
  await prisma.orderType.create({ data: { id: orderTypeId, typeOf: "local" } });
  await prisma.tagGroup.create({ data: { id: tagGroupId, buyerId, name: "Compliance" } });
  await prisma.tag.createMany({
    data: tagIds.map((id, index) => ({
      id,
      buyerId,
      tagGroupId,
      name: `Tag ${index}`,
      category: "compliance",
    })),
  });
  return {
    buyerId,
    apiKey,
    apiKeyId,
    supplierId,
    unconnectedSupplierId,
    productId,
    buyerProductId,
    approvalId,
    deliverySiteId,
    orderTypeId,
    tagGroupId,
    tagIds,
  };
}

/** Every order status, in the contract's spelling and the order it moves through them. */
export const ORDER_STATUS_VALUES = [
  "quote_selected",
  "order_placed",
  "order_confirmed",
  "shipped",
  "in_transit",
  "in_port",
  "in_warehouse",
  "delivered",
] as const;

export type OrderStatusValue = (typeof ORDER_STATUS_VALUES)[number];

export interface ResourceValueSeed {
  provider: string;
  value: string;
}

export interface OrderSeed {
  createdAt: Date;
  orderStatus?: OrderStatusValue;
  id?: string;
  /** Defaults to the buyer's connected supplier. */
  supplierId?: string;
  placedAt?: Date | null;
  purchaseOrderReference?: string | null;
  supplierOrderReference?: string | null;
  trackingType?: string | null;
  resourceValues?: ResourceValueSeed[];
}

/** Orders of the seeded buyer, written in one statement. Returns their ids in the given order. */
export async function seedOrders(
  database: Database,
  buyer: SeededBuyer,
  orders: OrderSeed[],
): Promise<string[]> {
  const rows = orders.map((order, index) => ({
    id: order.id ?? randomUUID(),
    buyerId: buyer.buyerId,
    supplierId: order.supplierId ?? buyer.supplierId,
    buyerProductApprovalId: buyer.approvalId,
    deliverySiteId: buyer.deliverySiteId,
    orderTypeId: buyer.orderTypeId,
    priceType: "ex_stock" as const,
    quantity: "4",
    pricePerUom: "2.35",
    taxAmount: "940",
    taxPercentage: "10",
    priceTotal: "10340.5",
    currency: "AUD",
    orderReference: `ORD-${index}`,
    orderStatus: order.orderStatus ?? "quote_selected",
    placedAt: order.placedAt ?? null,
    purchaseOrderReference: order.purchaseOrderReference ?? null,
    supplierOrderReference: order.supplierOrderReference ?? null,
    trackingType: order.trackingType ?? null,
    createdAt: order.createdAt,
    updatedAt: order.createdAt,
  }));
  await database.prisma.order.createMany({ data: rows });
  const resourceValues = orders.flatMap((order, index) =>
    (order.resourceValues ?? []).map((item, position) => ({
      orderId: rows[index]?.id ?? "",
      position,
      provider: item.provider,
      value: item.value,
    })),
  );
  if (resourceValues.length > 0)
    await database.prisma.orderResourceValue.createMany({ data: resourceValues });
  return rows.map((row) => row.id);
}

export type ApprovalStatusValue =
  | "preferred"
  | "purchased"
  | "approved"
  | "sample_requested"
  | "sample_approved"
  | "pending"
  | "unstarted"
  | "inactive"
  | "unapproved";

export interface ApprovalSeed {
  approvalStatus: ApprovalStatusValue;
  createdAt?: Date;
  /** Defaults to the buyer's seeded buyer product. */
  buyerProductId?: string;
  /** Defaults to the buyer's connected supplier; null for an approval without a supplier. */
  supplierId?: string | null;
  supplierName?: string | null;
  catalogueParentDisplayName?: string | null;
  catalogueParentProductCode?: string | null;
  reference?: string | null;
}

/** Approvals of the seeded buyer. Returns their ids in the given order. */
export async function seedApprovals(
  database: Database,
  buyer: SeededBuyer,
  approvals: ApprovalSeed[],
): Promise<string[]> {
  const rows = approvals.map((approval) => ({
    id: randomUUID(),
    buyerId: buyer.buyerId,
    buyerProductId: approval.buyerProductId ?? buyer.buyerProductId,
    supplierId: approval.supplierId === undefined ? buyer.supplierId : approval.supplierId,
    approvalStatus: approval.approvalStatus,
    supplierName: approval.supplierName ?? null,
    catalogueParentDisplayName: approval.catalogueParentDisplayName ?? null,
    catalogueParentProductCode: approval.catalogueParentProductCode ?? null,
    reference: approval.reference ?? null,
    ...(approval.createdAt ? { createdAt: approval.createdAt, updatedAt: approval.createdAt } : {}),
  }));
  await database.prisma.buyerProductApproval.createMany({ data: rows });
  return rows.map((row) => row.id);
}

/** Another buyer product of the seeded buyer, on the buyer's catalogue product. */
export async function seedBuyerProduct(
  database: Database,
  buyer: SeededBuyer,
  rawMaterialName: string,
): Promise<string> {
  const id = randomUUID();
  await database.prisma.buyerProduct.create({
    data: {
      id,
      buyerId: buyer.buyerId,
      productId: buyer.productId,
      rawMaterialName,
      measurementUnit: "kg",
      productType: "RawMaterial",
    },
  });
  return id;
}

export interface ProductSeed {
  name: string;
  productType: "Dye" | "Fragrance" | "Other" | "Packaging" | "RawMaterial";
  code?: string;
  casNumber?: string;
  synonyms?: string[];
  createdAt?: Date;
}

/** A catalogue product, normalised as the importer does. Returns its id. */
export async function seedProduct(database: Database, product: ProductSeed): Promise<string> {
  const id = randomUUID();
  const synonyms = product.synonyms ?? [];
  await database.prisma.product.create({
    data: {
      id,
      name: product.name,
      normalizedName: normalizeProductName(product.name),
      code: product.code ?? null,
      normalizedCode: product.code ? normalizeProductCode(product.code) : null,
      casNumber: product.casNumber ?? null,
      synonyms,
      normalizedSynonyms: synonyms.map(normalizeProductName),
      productType: product.productType,
      ...(product.createdAt ? { createdAt: product.createdAt } : {}),
    },
  });
  return id;
}

/** Connects the buyer to a supplier (for example another buyer's) with the given relationship. */
export async function connectSupplier(
  database: Database,
  buyer: SeededBuyer,
  supplierId: string,
  relationship: string,
): Promise<void> {
  await database.prisma.supplierConnection.create({
    data: { buyerId: buyer.buyerId, supplierId, relationship },
  });
}

/** A further API key of the buyer; returns the key and its id. */
export async function seedApiKey(
  database: Database,
  buyer: SeededBuyer,
): Promise<{ apiKey: string; apiKeyId: string }> {
  const apiKey = generateApiKey();
  const apiKeyId = randomUUID();
  await database.prisma.apiKey.create({
    data: {
      id: apiKeyId,
      buyerId: buyer.buyerId,
      hash: hashApiKey(apiKey),
      prefix: visibleKeyPrefix(apiKey),
      name: "extra",
    },
  });
  return { apiKey, apiKeyId };
}

export interface TwoBuyers {
  database: TestDatabase;
  buyer: SeededBuyer;
  /** Another organisation, whose records the buyer must not reach. */
  other: SeededBuyer;
  /** The buyer as the domain functions see their caller. */
  viewer: Viewer;
}

/** A new test database with a buyer and another one: the set-up of the domain tests that call functions directly. */
export async function twoBuyers(name: string): Promise<TwoBuyers> {
  const database = await createTestDatabase();
  const buyer = await seedBuyer(database, name);
  const other = await seedBuyer(database, "Other Buyer");
  return { database, buyer, other, viewer: { buyerId: buyer.buyerId, apiKeyId: buyer.apiKeyId } };
}
