-- A transaction's later statements for a buyer no longer rewrite its
-- buyer_versions row: only the first bumps it (and locks it); the others read
-- the version their own transaction already wrote. One row version per
-- transaction instead of one per writing statement, on the row every write of
-- the buyer queues for (docs/performance.md, "Conditional and cached reads").
CREATE OR REPLACE FUNCTION change_log_append(p_record_type text, p_change text, p_buyer_ids uuid[], p_record_ids uuid[], p_previous jsonb[])
  RETURNS void LANGUAGE sql AS $$
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
  )
  INSERT INTO change_log (buyer_id, record_type, record_id, change, previous, version)
  SELECT e.buyer_id, p_record_type, e.record_id, p_change, e.previous,
         -- Not bumped now: bumped by an earlier statement of this transaction, whose write this statement sees.
         coalesce(b.version, (SELECT v.version FROM buyer_versions AS v WHERE v.buyer_id = e.buyer_id))
  FROM entries AS e LEFT JOIN bumped AS b ON b.buyer_id = e.buyer_id
  ORDER BY e.ord
$$;
