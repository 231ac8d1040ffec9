-- The shared catalogue holds no buyer's private text (docs/decisions.md,
-- "Shared catalogue and privacy"). A product auto-match creates has no name
-- and no code of its own; origin_buyer_product_id names the buyer product
-- whose text its match keys were computed from, and is null for curated
-- (imported) products. disputed_cas_numbers keeps the valid CAS numbers a
-- creating buyer gave that contradicted the catalogue, out of rule 1's reach.

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "disputed_cas_numbers" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "origin_buyer_product_id" UUID,
ALTER COLUMN "name" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "products_origin_buyer_product_id_key" ON "products"("origin_buyer_product_id");

-- Products auto-match created before this migration copied the creating
-- buyer's name and code. Such a product has no synonyms, and its oldest buyer
-- product, written in the same transaction, carries exactly its name and code.
-- That buyer product keeps the text; the catalogue forgets it.
UPDATE "products" AS p
SET "origin_buyer_product_id" = first."id", "name" = NULL, "code" = NULL, "normalized_code" = NULL
FROM (
  SELECT DISTINCT ON ("product_id") "id", "product_id", "raw_material_name", "raw_material_code", "created_at"
  FROM "buyer_products"
  ORDER BY "product_id", "created_at", "id"
) AS first
WHERE first."product_id" = p."id"
  AND cardinality(p."synonyms") = 0
  AND first."raw_material_name" = p."name"
  AND first."raw_material_code" IS NOT DISTINCT FROM p."code"
  AND first."created_at" >= p."created_at"
  AND first."created_at" < p."created_at" + interval '1 minute';
