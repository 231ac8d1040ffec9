-- The change log's triggers, cheaper per writing statement, with the same
-- entries (docs/performance.md, "Fourth pass: what the log costs a write").
--
-- change_log_append becomes PL/pgSQL with the same statement: PostgreSQL
-- plans a LANGUAGE sql function's statements again on every call, and
-- PL/pgSQL keeps the plan. That was half of what the log added to a PATCH.
--
-- The "what changed" comparisons pair the old and new row's fields with one
-- join of jsonb_each on both sides, and convert each row to jsonb once
-- (OFFSET 0 keeps the planner from inlining to_jsonb into every reference).
-- Before, a lookup in the new row for each field converted that row again for
-- every field.
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
  )
  INSERT INTO change_log (buyer_id, record_type, record_id, change, previous, version)
  SELECT e.buyer_id, p_record_type, e.record_id, p_change, e.previous,
         -- Not bumped now: bumped by an earlier statement of this transaction, whose write this statement sees.
         coalesce(b.version, (SELECT v.version FROM buyer_versions AS v WHERE v.buyer_id = e.buyer_id))
  FROM entries AS e LEFT JOIN bumped AS b ON b.buyer_id = e.buyer_id
  ORDER BY e.ord;
END $$;

CREATE OR REPLACE FUNCTION change_log_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  SELECT array_agg((n.j ->> TG_ARGV[2])::uuid), array_agg((n.j ->> TG_ARGV[1])::uuid), array_agg(d.previous)
    INTO buyers, ids, previous
  FROM (SELECT to_jsonb(x) AS j FROM new_rows AS x OFFSET 0) AS n
  JOIN (SELECT to_jsonb(y) AS j FROM old_rows AS y OFFSET 0) AS o
    ON (o.j -> TG_ARGV[1]) = (n.j -> TG_ARGV[1]) AND (o.j -> TG_ARGV[2]) = (n.j -> TG_ARGV[2])
  CROSS JOIN LATERAL (
    SELECT jsonb_object_agg(before.key, before.value) AS previous
    FROM jsonb_each(o.j) AS before JOIN jsonb_each(n.j) AS after ON after.key = before.key
    WHERE after.value IS DISTINCT FROM before.value
  ) AS d
  WHERE d.previous IS NOT NULL;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append(TG_ARGV[0], 'updated', buyers, ids, previous);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION change_log_shared_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  record_type text := TG_ARGV[0];
  shown text[] := TG_ARGV[1:];
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  WITH changed AS (
    SELECT (n.j ->> 'id')::uuid AS id, d.previous
    FROM (SELECT to_jsonb(x) AS j FROM new_rows AS x OFFSET 0) AS n
    JOIN (SELECT to_jsonb(y) AS j FROM old_rows AS y OFFSET 0) AS o ON (o.j -> 'id') = (n.j -> 'id')
    CROSS JOIN LATERAL (
      SELECT jsonb_object_agg(before.key, before.value) AS previous
      FROM jsonb_each(o.j) AS before JOIN jsonb_each(n.j) AS after ON after.key = before.key
      WHERE before.key = ANY (shown) AND after.value IS DISTINCT FROM before.value
    ) AS d
    WHERE d.previous IS NOT NULL
  ), readers AS (
    SELECT sc.buyer_id, c.id FROM changed AS c JOIN supplier_connections AS sc ON sc.supplier_id = c.id
      WHERE record_type = 'supplier'
    UNION
    SELECT o.buyer_id, c.id FROM changed AS c JOIN orders AS o ON o.supplier_id = c.id
      WHERE record_type = 'supplier'
    UNION
    SELECT a.buyer_id, c.id FROM changed AS c JOIN buyer_product_approvals AS a ON a.supplier_id = c.id
      WHERE record_type = 'supplier'
    UNION
    SELECT bp.buyer_id, c.id FROM changed AS c JOIN buyer_products AS bp ON bp.product_id = c.id
      WHERE record_type = 'product'
    UNION
    SELECT o.buyer_id, c.id FROM changed AS c JOIN orders AS o ON o.order_type_id = c.id
      WHERE record_type = 'order_type'
  )
  SELECT array_agg(r.buyer_id ORDER BY r.buyer_id, r.id), array_agg(r.id ORDER BY r.buyer_id, r.id),
         array_agg(c.previous ORDER BY r.buyer_id, r.id)
    INTO buyers, ids, previous
  FROM readers AS r JOIN changed AS c ON c.id = r.id;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append(record_type, 'updated', buyers, ids, previous);
  END IF;
  RETURN NULL;
END $$;
