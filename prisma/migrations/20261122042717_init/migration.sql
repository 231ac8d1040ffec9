-- pg_trgm powers the similar-name auto-match rule and its GIN trigram index.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "MeasurementUnit" AS ENUM ('EA', 'L', 'MT', 'g', 'kg', 'mL');

-- CreateEnum
CREATE TYPE "ProductType" AS ENUM ('Dye', 'Fragrance', 'Other', 'Packaging', 'Raw Material');

-- CreateEnum
CREATE TYPE "ContainerType" AS ENUM ('Bag', 'Bottle', 'Bulk', 'Bulk Bag', 'Drum', 'Flexibag', 'IBC', 'ISOTank', 'Pail', 'Sample', 'Tanker', 'Unit');

-- CreateEnum
CREATE TYPE "DocumentType" AS ENUM ('allergen_statement', 'animal_testing_statement', 'batch_coa', 'bill_of_lading', 'bill_of_lading_surrendered', 'brcgs', 'brochure', 'certificate_of_origin', 'commercial_invoice', 'delivery_note', 'email', 'ethylene_oxide_dioxane_certificate', 'fda_certificate', 'fssc_22000', 'gmo_free_statement', 'gmp_certificate', 'haccp', 'halal_certificate', 'impurities_statement', 'internal_specification', 'iso14001', 'iso9001', 'kosher_certificate', 'multi_modal_dangerous_goods_form', 'nanoparticle_statement', 'nitrosamine_impurities', 'other', 'packing_declaration', 'packing_list', 'pif', 'product_specification', 'product_watchlist_batch', 'proof_of_delivery', 'purchase_order', 'quality_agreement', 'quarantine_document', 'quote', 'residual_solvent_statement', 'rspo_certificate', 'sample_coa', 'sds', 'specification_sheet', 'supplier_questionnaire', 'tds', 'tga_certificate', 'tse_certificate');

-- CreateEnum
CREATE TYPE "PriceType" AS ENUM ('ex_stock', 'indent', 'hot_deal', 'excess_stock', 'full_container');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('quote_selected', 'order_placed', 'order_confirmed', 'in_transit', 'in_warehouse', 'shipped', 'in_port', 'delivered');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('preferred', 'purchased', 'approved', 'sample_requested', 'sample_approved', 'pending', 'unstarted', 'inactive', 'unapproved');

-- CreateEnum
CREATE TYPE "TaggableType" AS ENUM ('BuyerProduct', 'Order', 'BuyerProductApproval', 'SupplierUser');

-- CreateTable
CREATE TABLE "buyers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "buyers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suppliers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppliers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "supplier_connections" (
    "buyer_id" UUID NOT NULL,
    "supplier_id" UUID NOT NULL,
    "relationship" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "supplier_connections_pkey" PRIMARY KEY ("buyer_id","supplier_id")
);

-- CreateTable
CREATE TABLE "supplier_users" (
    "id" UUID NOT NULL,
    "supplier_id" UUID NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "contact_email" TEXT NOT NULL,
    "contact_email_key" TEXT NOT NULL,
    "created_by_buyer_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "supplier_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tag_groups" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tag_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "tag_group_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "taggings" (
    "tag_id" UUID NOT NULL,
    "taggable_type" "TaggableType" NOT NULL,
    "taggable_id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "taggings_pkey" PRIMARY KEY ("taggable_id","tag_id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "normalized_name" TEXT NOT NULL,
    "code" TEXT,
    "normalized_code" TEXT,
    "cas_number" TEXT,
    "synonyms" TEXT[],
    "normalized_synonyms" TEXT[],
    "product_type" "ProductType" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "buyer_products" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "raw_material_name" TEXT,
    "measurement_unit" "MeasurementUnit" NOT NULL,
    "product_type" "ProductType" NOT NULL,
    "raw_material_code" TEXT,
    "annual_usage" INTEGER,
    "typical_order_size" INTEGER,
    "frequency" TEXT,
    "container_type" "ContainerType",
    "target_approvals" INTEGER,
    "priority_product" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "document_types" "DocumentType"[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "buyer_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "buyer_product_resource_values" (
    "buyer_product_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "buyer_product_resource_values_pkey" PRIMARY KEY ("buyer_product_id","position")
);

-- CreateTable
CREATE TABLE "buyer_product_approvals" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "buyer_product_id" UUID NOT NULL,
    "supplier_id" UUID,
    "approval_status" "ApprovalStatus" NOT NULL,
    "supplier_name" TEXT,
    "catalogue_parent_display_name" TEXT,
    "catalogue_parent_product_code" TEXT,
    "reference" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "buyer_product_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_sites" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "site_name" TEXT NOT NULL,
    "address_street" TEXT NOT NULL,
    "address_city" TEXT NOT NULL,
    "address_state" TEXT NOT NULL,
    "address_postcode" TEXT NOT NULL,
    "address_country" TEXT NOT NULL,
    "address_full_address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_types" (
    "id" UUID NOT NULL,
    "type_of" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "supplier_id" UUID NOT NULL,
    "buyer_product_approval_id" UUID NOT NULL,
    "delivery_site_id" UUID NOT NULL,
    "order_type_id" UUID NOT NULL,
    "price_type" "PriceType" NOT NULL,
    "quantity" DECIMAL(20,6) NOT NULL,
    "price_per_uom" DECIMAL(20,6) NOT NULL,
    "tax_amount" DECIMAL(20,6) NOT NULL,
    "tax_percentage" DECIMAL(9,4) NOT NULL,
    "price_total" DECIMAL(20,6) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "order_reference" TEXT,
    "order_status" "OrderStatus" NOT NULL,
    "purchase_order_reference" TEXT,
    "supplier_order_reference" TEXT,
    "tracking_type" TEXT,
    "placed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_resource_values" (
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "order_resource_values_pkey" PRIMARY KEY ("order_id","position")
);

-- CreateTable
CREATE TABLE "order_events" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "api_key_id" UUID,
    "actor" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "api_key_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("api_key_id","key")
);

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "subject" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("subject","window_start")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_buyer_id_created_at_idx" ON "api_keys"("buyer_id", "created_at");

-- CreateIndex
CREATE INDEX "supplier_connections_supplier_id_idx" ON "supplier_connections"("supplier_id");

-- CreateIndex
CREATE INDEX "supplier_users_created_by_buyer_id_idx" ON "supplier_users"("created_by_buyer_id");

-- CreateIndex
CREATE UNIQUE INDEX "supplier_users_supplier_id_contact_email_key_key" ON "supplier_users"("supplier_id", "contact_email_key");

-- CreateIndex
CREATE INDEX "tag_groups_buyer_id_idx" ON "tag_groups"("buyer_id");

-- CreateIndex
CREATE INDEX "tags_buyer_id_idx" ON "tags"("buyer_id");

-- CreateIndex
CREATE INDEX "tags_tag_group_id_idx" ON "tags"("tag_group_id");

-- CreateIndex
CREATE INDEX "taggings_tag_id_idx" ON "taggings"("tag_id");

-- CreateIndex
CREATE INDEX "taggings_taggable_type_taggable_id_idx" ON "taggings"("taggable_type", "taggable_id");

-- CreateIndex
CREATE INDEX "products_cas_number_idx" ON "products"("cas_number");

-- CreateIndex
CREATE INDEX "products_normalized_code_idx" ON "products"("normalized_code");

-- CreateIndex
CREATE INDEX "products_product_type_normalized_name_idx" ON "products"("product_type", "normalized_name");

-- CreateIndex
CREATE INDEX "products_normalized_synonyms_idx" ON "products" USING GIN ("normalized_synonyms");

-- CreateIndex
CREATE INDEX "products_normalized_name_trgm_idx" ON "products" USING GIN ("normalized_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "buyer_products_buyer_id_created_at_id_idx" ON "buyer_products"("buyer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "buyer_products_product_id_idx" ON "buyer_products"("product_id");

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_id_created_at_id_idx" ON "buyer_product_approvals"("buyer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_id_approval_status_created_at_idx" ON "buyer_product_approvals"("buyer_id", "approval_status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "buyer_product_approvals_buyer_product_id_idx" ON "buyer_product_approvals"("buyer_product_id");

-- CreateIndex
CREATE INDEX "delivery_sites_buyer_id_idx" ON "delivery_sites"("buyer_id");

-- CreateIndex
CREATE INDEX "orders_buyer_id_created_at_id_idx" ON "orders"("buyer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_id_order_status_created_at_id_idx" ON "orders"("buyer_id", "order_status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_buyer_product_approval_id_idx" ON "orders"("buyer_product_approval_id");

-- CreateIndex
CREATE INDEX "orders_supplier_id_idx" ON "orders"("supplier_id");

-- CreateIndex
CREATE INDEX "order_events_order_id_created_at_idx" ON "order_events"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows"("window_start");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_connections" ADD CONSTRAINT "supplier_connections_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_connections" ADD CONSTRAINT "supplier_connections_supplier_id_fkey" FOREIGN KEY ("supplier_id") REFERENCES "suppliers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_users" ADD CONSTRAINT "supplier_users_supplier_id_fkey" FOREIGN KEY ("supplier_id") REFERENCES "suppliers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_users" ADD CONSTRAINT "supplier_users_created_by_buyer_id_fkey" FOREIGN KEY ("created_by_buyer_id") REFERENCES "buyers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tag_groups" ADD CONSTRAINT "tag_groups_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_tag_group_id_fkey" FOREIGN KEY ("tag_group_id") REFERENCES "tag_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "taggings" ADD CONSTRAINT "taggings_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "taggings" ADD CONSTRAINT "taggings_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_products" ADD CONSTRAINT "buyer_products_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_products" ADD CONSTRAINT "buyer_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_product_resource_values" ADD CONSTRAINT "buyer_product_resource_values_buyer_product_id_fkey" FOREIGN KEY ("buyer_product_id") REFERENCES "buyer_products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_product_approvals" ADD CONSTRAINT "buyer_product_approvals_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_product_approvals" ADD CONSTRAINT "buyer_product_approvals_buyer_product_id_fkey" FOREIGN KEY ("buyer_product_id") REFERENCES "buyer_products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "buyer_product_approvals" ADD CONSTRAINT "buyer_product_approvals_supplier_id_fkey" FOREIGN KEY ("supplier_id") REFERENCES "suppliers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_sites" ADD CONSTRAINT "delivery_sites_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "buyers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_supplier_id_fkey" FOREIGN KEY ("supplier_id") REFERENCES "suppliers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_product_approval_id_fkey" FOREIGN KEY ("buyer_product_approval_id") REFERENCES "buyer_product_approvals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_site_id_fkey" FOREIGN KEY ("delivery_site_id") REFERENCES "delivery_sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_order_type_id_fkey" FOREIGN KEY ("order_type_id") REFERENCES "order_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_resource_values" ADD CONSTRAINT "order_resource_values_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
