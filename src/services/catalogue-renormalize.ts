// The match keys of catalogue products are computed in JavaScript and stored,
// so a change to normalisation leaves stored keys stale until they are
// recomputed. `buyer-api catalogue renormalize` runs this after such a change.
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { contractSpelling } from "../domain/contract-vocabulary.js";
import { catalogueKeys } from "../domain/product-identity.js";

export interface RenormalizeReport {
  checked: number;
  updated: number;
}

const BATCH_SIZE = 1000;

/**
 * Recomputes every product's normalised name, code and synonyms; writes only the ones that changed.
 * A product whose text is gone (an auto-created product whose buyer product has no name) keeps its keys.
 */
export async function renormalizeCatalogue(
  prisma: PrismaClient,
  onBatch: (report: RenormalizeReport) => void = () => {},
): Promise<RenormalizeReport> {
  const report: RenormalizeReport = { checked: 0, updated: 0 };
  let after: string | undefined;
  for (;;) {
    const products = await prisma.product.findMany({
      ...(after ? { where: { id: { gt: after } } } : {}),
      orderBy: { id: "asc" },
      take: BATCH_SIZE,
      select: {
        id: true,
        name: true,
        code: true,
        synonyms: true,
        productType: true,
        normalizedName: true,
        normalizedCode: true,
        normalizedSynonyms: true,
        originBuyerProductId: true,
      },
    });
    if (products.length === 0) return report;
    const originNames = await originNamesOf(prisma, products);
    const changed = products.flatMap((product) => {
      // A curated product's keys come from its catalogue text; a product auto-match created
      // has none, and its keys come from the buyer product that created it.
      const name = product.originBuyerProductId
        ? originNames.get(product.originBuyerProductId)
        : (product.name ?? undefined);
      if (name === undefined) return [];
      const keys = catalogueKeys({ ...product, name, productType: contractSpelling(product.productType) });
      const same =
        keys.normalizedName === product.normalizedName &&
        keys.normalizedCode === product.normalizedCode &&
        keys.normalizedSynonyms.join("\u0000") === product.normalizedSynonyms.join("\u0000");
      return same ? [] : [{ id: product.id, ...keys }];
    });
    if (changed.length > 0) {
      // updated_at is left alone: the product as the catalogue describes it has not changed.
      await prisma.$transaction(
        changed.map(
          (row) =>
            prisma.$executeRaw`UPDATE products
            SET normalized_name = ${row.normalizedName},
                normalized_code = ${row.normalizedCode},
                normalized_synonyms = ${row.normalizedSynonyms}::text[]
            WHERE id = ${row.id}::uuid`,
        ),
      );
    }
    report.checked += products.length;
    report.updated += changed.length;
    onBatch({ ...report });
    after = products.at(-1)?.id;
  }
}

/** The raw material names of the buyer products that created these products, by buyer product id. */
async function originNamesOf(
  prisma: PrismaClient,
  products: readonly { originBuyerProductId: string | null }[],
): Promise<Map<string, string>> {
  const ids = products.flatMap((product) =>
    product.originBuyerProductId ? [product.originBuyerProductId] : [],
  );
  if (ids.length === 0) return new Map();
  const origins = await prisma.buyerProduct.findMany({
    where: { id: { in: ids } },
    select: { id: true, rawMaterialName: true },
  });
  return new Map(
    origins.flatMap((origin) =>
      origin.rawMaterialName === null ? [] : [[origin.id, origin.rawMaterialName]],
    ),
  );
}
