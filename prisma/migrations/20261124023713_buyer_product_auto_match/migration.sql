-- AlterTable
ALTER TABLE "buyer_products" ADD COLUMN     "auto_match_score" DOUBLE PRECISION,
ADD COLUMN     "auto_match_strategy" TEXT;

-- Written by hand: the stored outcome is one of auto-match's rules, and comes with its score.
ALTER TABLE "buyer_products" ADD CONSTRAINT "buyer_products_auto_match_check" CHECK (
  ("auto_match_strategy" IS NULL AND "auto_match_score" IS NULL)
  OR ("auto_match_strategy" IN ('cas_number', 'code', 'name', 'synonym', 'similar_name', 'none')
      AND "auto_match_score" IS NOT NULL)
);
