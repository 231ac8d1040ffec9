// Creating a buyer product: matched to the catalogue (or a new catalogue
// product created) and written with its resource values in one transaction.
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type {
  ContainerType,
  DocumentType,
  MeasurementUnit,
  ProductType,
} from "../db/generated/prisma/enums.js";
import { type AutoMatchResult, matchOrCreateProduct } from "./auto-match.js";

/** A checked buyer product to create: every value as it is stored. */
export interface NewBuyerProduct {
  id: string;
  buyerId: string;
  rawMaterialName: string;
  rawMaterialCode: string | null;
  measurementUnit: MeasurementUnit;
  productType: ProductType;
  annualUsage: number | null;
  typicalOrderSize: number | null;
  frequency: string | null;
  containerType: ContainerType | null;
  targetApprovals: number | null;
  priorityProduct: boolean;
  active: boolean;
  documentTypes: DocumentType[];
  /** External identifiers, kept in the order given. */
  resourceValues: readonly { provider: string; value: string }[];
}

/** Matches `product` to the catalogue and creates it; how it was matched. */
export function createBuyerProduct(prisma: PrismaClient, product: NewBuyerProduct): Promise<AutoMatchResult> {
  const { id, resourceValues, ...columns } = product;
  return prisma.$transaction(async (tx) => {
    const match = await matchOrCreateProduct(
      tx,
      {
        rawMaterialName: columns.rawMaterialName,
        rawMaterialCode: columns.rawMaterialCode,
        productType: columns.productType,
      },
      id,
    );
    // createMany: no statement reads the row back. This insert's change log trigger takes the buyer's
    // version row, which every write of the buyer queues for until COMMIT; nothing more should follow.
    await tx.buyerProduct.createMany({
      data: {
        id,
        ...columns,
        productId: match.productId,
        autoMatchStrategy: match.strategy,
        autoMatchScore: match.score,
      },
    });
    if (resourceValues.length > 0) {
      await tx.buyerProductResourceValue.createMany({
        data: resourceValues.map((item, position) => ({ buyerProductId: id, position, ...item })),
      });
    }
    return match;
  });
}
