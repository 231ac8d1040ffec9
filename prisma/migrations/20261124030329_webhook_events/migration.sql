-- CreateTable
CREATE TABLE "change_log_unrendered" (
    "seq" BIGINT NOT NULL,

    CONSTRAINT "change_log_unrendered_pkey" PRIMARY KEY ("seq")
);


-- Entries of the change log that become events (docs/webhooks.md) are listed
-- for the event materialiser in the writing transaction itself, so none is
-- missed whatever order transactions commit in. The NOTIFY wakes idle
-- materialisers; PostgreSQL sends one per transaction however many rows.
CREATE FUNCTION change_log_mark_unrendered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO change_log_unrendered (seq) SELECT n.seq FROM new_rows AS n
  WHERE (n.record_type, n.change) IN (
    ('order', 'created'), ('order', 'updated'),
    ('buyer_product', 'created'),
    ('buyer_product_approval', 'created'), ('buyer_product_approval', 'updated'),
    ('supplier_user', 'created'),
    ('tagging', 'created'));
  IF FOUND THEN
    PERFORM pg_notify('webhook_work', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER change_log_mark_unrendered AFTER INSERT ON "change_log"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_mark_unrendered();
