-- Indexes for the sort keys, filters and query: searches of the root GraphQL lists
-- (docs/graphql.md, "Sorting, paging and searching lists"). Descending b-trees
-- put nulls first, as the lists sort them; the trigram indexes serve prefix and
-- contains searches in any case (pg_trgm is created by the init migration).

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_id_updated_at_id_idx" ON "buyer_product_approvals"("buyer_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_id_supplier_name_id_idx" ON "buyer_product_approvals"("buyer_id", "supplier_name", "id");

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_id_reference_id_idx" ON "buyer_product_approvals"("buyer_id", "reference", "id");

-- CreateIndex
CREATE INDEX "buyer_products_buyer_id_updated_at_id_idx" ON "buyer_products"("buyer_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "buyer_products_buyer_id_raw_material_name_id_idx" ON "buyer_products"("buyer_id", "raw_material_name", "id");

-- CreateIndex
CREATE INDEX "buyer_products_buyer_id_raw_material_code_id_idx" ON "buyer_products"("buyer_id", "raw_material_code", "id");

-- CreateIndex
CREATE INDEX "buyer_products_raw_material_name_trgm_idx" ON "buyer_products" USING GIN ("raw_material_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "orders_buyer_id_supplier_id_created_at_id_idx" ON "orders"("buyer_id", "supplier_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_id_updated_at_id_idx" ON "orders"("buyer_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_id_placed_at_id_idx" ON "orders"("buyer_id", "placed_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_id_price_total_id_idx" ON "orders"("buyer_id", "price_total" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_id_order_reference_id_idx" ON "orders"("buyer_id", "order_reference", "id");

-- CreateIndex
CREATE INDEX "orders_buyer_id_purchase_order_reference_id_idx" ON "orders"("buyer_id", "purchase_order_reference", "id");

-- CreateIndex
CREATE INDEX "orders_order_reference_trgm_idx" ON "orders" USING GIN ("order_reference" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "orders_purchase_order_reference_trgm_idx" ON "orders" USING GIN ("purchase_order_reference" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "tag_groups_buyer_id_name_id_idx" ON "tag_groups"("buyer_id", "name", "id");

-- CreateIndex
CREATE INDEX "tags_buyer_id_name_id_idx" ON "tags"("buyer_id", "name", "id");
