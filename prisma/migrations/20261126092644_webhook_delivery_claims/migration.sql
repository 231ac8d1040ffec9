-- DropIndex
DROP INDEX "webhook_deliveries_status_available_at_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_endpoint_id_available_at_idx" ON "webhook_deliveries"("status", "endpoint_id", "available_at");
