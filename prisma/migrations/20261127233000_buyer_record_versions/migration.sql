-- Versions per record type: for each buyer and record type, the buyer's
-- version of the last transaction that wrote a record of that type. A read's
-- ETag carries the highest over the types its answer can show, so a write of
-- one type keeps the tags of reads that cannot show it (docs/design/decisions.md §9).

-- CreateTable
CREATE TABLE "buyer_record_versions" (
    "buyer_id" UUID NOT NULL,
    "record_type" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "buyer_record_versions_pkey" PRIMARY KEY ("buyer_id","record_type")
);

-- Every entry of the log moves its type's row to the entry's version, in the
-- same statement. The buyer's row in buyer_versions is locked by then (bumped
-- by this statement or an earlier one of the transaction), so the type rows,
-- taken in buyer_id order after it, cannot deadlock.
CREATE OR REPLACE FUNCTION change_log_append(p_record_type text, p_change text, p_buyer_ids uuid[], p_record_ids uuid[], p_previous jsonb[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH entries AS (
    SELECT DISTINCT ON (e.buyer_id, e.record_id) e.buyer_id, e.record_id, e.previous, e.ord
    FROM unnest(p_buyer_ids, p_record_ids, p_previous) WITH ORDINALITY AS e(buyer_id, record_id, previous, ord)
    WHERE e.buyer_id IS NOT NULL AND e.record_id IS NOT NULL
    ORDER BY e.buyer_id, e.record_id, e.ord
  ), bumped AS (
    INSERT INTO buyer_versions AS v (buyer_id, version, xact)
    SELECT DISTINCT entries.buyer_id, 1::bigint, pg_current_xact_id()::text::bigint FROM entries ORDER BY 1
    ON CONFLICT (buyer_id) DO UPDATE
      SET version = v.version + 1, xact = excluded.xact
      WHERE v.xact <> excluded.xact
    RETURNING v.buyer_id, v.version
  ), logged AS (
    INSERT INTO change_log (buyer_id, record_type, record_id, change, previous, version)
    SELECT e.buyer_id, p_record_type, e.record_id, p_change, e.previous,
           -- Not bumped now: bumped by an earlier statement of this transaction, whose write this statement sees.
           coalesce(b.version, (SELECT v.version FROM buyer_versions AS v WHERE v.buyer_id = e.buyer_id))
    FROM entries AS e LEFT JOIN bumped AS b ON b.buyer_id = e.buyer_id
    ORDER BY e.ord
    RETURNING buyer_id, version
  )
  INSERT INTO buyer_record_versions AS r (buyer_id, record_type, version)
  SELECT DISTINCT logged.buyer_id, p_record_type, logged.version FROM logged ORDER BY 1
  ON CONFLICT (buyer_id, record_type) DO UPDATE SET version = excluded.version
    WHERE r.version < excluded.version;
END $$;

-- What was written before: every type at the buyer's version, so that no tag
-- handed out earlier can name an older state.
INSERT INTO buyer_record_versions (buyer_id, record_type, version)
SELECT v.buyer_id, t.record_type, v.version
FROM buyer_versions AS v
CROSS JOIN (
  SELECT unnest(ARRAY['order', 'buyer_product', 'buyer_product_approval', 'supplier_user', 'tagging', 'tag',
                      'tag_group', 'delivery_site', 'supplier_connection', 'buyer', 'supplier', 'product',
                      'order_type']) AS record_type
  UNION
  SELECT DISTINCT record_type FROM change_log
) AS t;
