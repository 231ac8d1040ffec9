-- CreateTable
CREATE TABLE "change_log" (
    "seq" BIGSERIAL NOT NULL,
    "buyer_id" UUID NOT NULL,
    "record_type" TEXT NOT NULL,
    "record_id" UUID NOT NULL,
    "change" TEXT NOT NULL,
    "previous" JSONB,
    "version" BIGINT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "change_log_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "buyer_versions" (
    "buyer_id" UUID NOT NULL,
    "version" BIGINT NOT NULL,
    "xact" BIGINT NOT NULL,

    CONSTRAINT "buyer_versions_pkey" PRIMARY KEY ("buyer_id")
);

-- CreateIndex
CREATE INDEX "change_log_buyer_id_seq_idx" ON "change_log"("buyer_id", "seq");

-- CreateIndex
CREATE INDEX "change_log_buyer_id_record_type_record_id_version_idx" ON "change_log"("buyer_id", "record_type", "record_id", "version");

-- The change log (docs/decisions.md §9): every write that can change what a
-- buyer reads adds entries here, in the writing transaction, from PostgreSQL
-- triggers. Statement-level triggers with transition tables cover every
-- write path (REST, GraphQL, the CLI import, catalogue renormalize, psql) and
-- stay set-based for the bulk import: one INSERT into change_log per statement,
-- not one per row.
--
-- Each writing transaction bumps the version of every buyer it touched once
-- (buyer_versions.xact remembers which transaction did). Readers take the
-- version from that row, not from max(seq): sequence values are handed out in
-- statement order, not commit order, while the row is updated under its lock
-- and becomes visible exactly at commit, together with the data.
--
-- Rows are locked in buyer_id order so that one statement touching several
-- buyers cannot deadlock against another. Writes to data several buyers see
-- (a supplier's name, a catalogue product, an order type) fan out: one entry
-- per buyer whose responses show it. Only columns a response shows count.
--
-- Written by hand: Prisma models neither functions nor triggers.

-- Appends entries of one kind for one record type; duplicates of a (buyer, record) pair keep the first.
CREATE FUNCTION change_log_append(p_record_type text, p_change text, p_buyer_ids uuid[], p_record_ids uuid[], p_previous jsonb[])
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
      SET version = CASE WHEN v.xact = excluded.xact THEN v.version ELSE v.version + 1 END,
          xact = excluded.xact
    RETURNING v.buyer_id, v.version
  )
  INSERT INTO change_log (buyer_id, record_type, record_id, change, previous, version)
  SELECT e.buyer_id, p_record_type, e.record_id, p_change, e.previous, b.version
  FROM entries AS e JOIN bumped AS b ON b.buyer_id = e.buyer_id
  ORDER BY e.ord
$$;

-- Arguments: record type, id column, buyer column. previous holds the earlier
-- value of every column that changed; a row where nothing changed is no entry.
CREATE FUNCTION change_log_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  SELECT array_agg((n.j ->> TG_ARGV[2])::uuid), array_agg((n.j ->> TG_ARGV[1])::uuid), array_agg(d.previous)
    INTO buyers, ids, previous
  FROM (SELECT to_jsonb(x) AS j FROM new_rows AS x) AS n
  JOIN (SELECT to_jsonb(y) AS j FROM old_rows AS y) AS o
    ON (o.j -> TG_ARGV[1]) = (n.j -> TG_ARGV[1]) AND (o.j -> TG_ARGV[2]) = (n.j -> TG_ARGV[2])
  CROSS JOIN LATERAL (
    SELECT jsonb_object_agg(e.key, e.value) AS previous
    FROM jsonb_each(o.j) AS e
    WHERE (n.j -> e.key) IS DISTINCT FROM e.value
  ) AS d
  WHERE d.previous IS NOT NULL;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append(TG_ARGV[0], 'updated', buyers, ids, previous);
  END IF;
  RETURN NULL;
END $$;

-- Data shared between buyers: only an update can change what a buyer sees (a
-- new supplier, product or order type is shown only once a buyer's row points
-- at it, and that row logs itself; deleting one a buyer's row points at is
-- refused or cascades into rows that log themselves). Arguments: record type,
-- then the columns buyers' responses show; other columns (match keys) count for nothing.
CREATE FUNCTION change_log_shared_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  record_type text := TG_ARGV[0];
  shown text[] := TG_ARGV[1:];
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  WITH changed AS (
    SELECT (n.j ->> 'id')::uuid AS id, d.previous
    FROM (SELECT to_jsonb(x) AS j FROM new_rows AS x) AS n
    JOIN (SELECT to_jsonb(y) AS j FROM old_rows AS y) AS o ON (o.j -> 'id') = (n.j -> 'id')
    CROSS JOIN LATERAL (
      SELECT jsonb_object_agg(e.key, e.value) AS previous
      FROM jsonb_each(o.j) AS e
      WHERE e.key = ANY (shown) AND (n.j -> e.key) IS DISTINCT FROM e.value
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

-- order_resource_values: the list inside order responses. A order created in this
-- transaction already has its "created" entry and gets no "updated" one.
CREATE FUNCTION change_log_order_resource_values() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM orders AS t
      WHERE t.id IN (SELECT n.order_id FROM new_rows AS n) AND NOT EXISTS (
        SELECT 1 FROM change_log AS cl
        WHERE cl.buyer_id = t.buyer_id AND cl.record_type = 'order' AND cl.record_id = t.id
          AND cl.change = 'created'
          AND cl.version = (SELECT bv.version FROM buyer_versions AS bv
                            WHERE bv.buyer_id = t.buyer_id AND bv.xact = pg_current_xact_id()::text::bigint)
        OFFSET 0)
    ), before_rows AS (
      SELECT c.order_id AS parent_id, c.position, c.provider, c.value
      FROM order_resource_values AS c JOIN parents ON parents.id = c.order_id
      WHERE NOT EXISTS (SELECT 1 FROM new_rows AS n WHERE n.order_id = c.order_id AND n.position = c.position)
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM orders AS t
      WHERE t.id IN (
        SELECT n.order_id FROM new_rows AS n
        JOIN old_rows AS o ON o.order_id = n.order_id AND o.position = n.position
        WHERE (o.provider, o.value) IS DISTINCT FROM (n.provider, n.value)
      ) AND NOT EXISTS (
        SELECT 1 FROM change_log AS cl
        WHERE cl.buyer_id = t.buyer_id AND cl.record_type = 'order' AND cl.record_id = t.id
          AND cl.change = 'created'
          AND cl.version = (SELECT bv.version FROM buyer_versions AS bv
                            WHERE bv.buyer_id = t.buyer_id AND bv.xact = pg_current_xact_id()::text::bigint)
        OFFSET 0)
    ), before_rows AS (
      SELECT c.order_id AS parent_id, c.position, c.provider, c.value
      FROM order_resource_values AS c JOIN parents ON parents.id = c.order_id
      WHERE NOT EXISTS (SELECT 1 FROM new_rows AS n WHERE n.order_id = c.order_id AND n.position = c.position)
      UNION ALL
      SELECT o.order_id, o.position, o.provider, o.value
      FROM old_rows AS o JOIN parents ON parents.id = o.order_id
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  ELSE
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM orders AS t
      WHERE t.id IN (SELECT o.order_id FROM old_rows AS o)
    ), before_rows AS (
      SELECT c.order_id AS parent_id, c.position, c.provider, c.value
      FROM order_resource_values AS c JOIN parents ON parents.id = c.order_id
      UNION ALL
      SELECT o.order_id, o.position, o.provider, o.value
      FROM old_rows AS o JOIN parents ON parents.id = o.order_id
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  END IF;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('order', 'updated', buyers, ids, previous);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER order_resource_values_change_log_insert AFTER INSERT ON "order_resource_values"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_order_resource_values();
CREATE TRIGGER order_resource_values_change_log_update AFTER UPDATE ON "order_resource_values"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_order_resource_values();
CREATE TRIGGER order_resource_values_change_log_delete AFTER DELETE ON "order_resource_values"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_order_resource_values();

-- buyer_product_resource_values: the list inside buyer_product responses. A buyer_product created in this
-- transaction already has its "created" entry and gets no "updated" one.
CREATE FUNCTION change_log_buyer_product_resource_values() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
  previous jsonb[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM buyer_products AS t
      WHERE t.id IN (SELECT n.buyer_product_id FROM new_rows AS n) AND NOT EXISTS (
        SELECT 1 FROM change_log AS cl
        WHERE cl.buyer_id = t.buyer_id AND cl.record_type = 'buyer_product' AND cl.record_id = t.id
          AND cl.change = 'created'
          AND cl.version = (SELECT bv.version FROM buyer_versions AS bv
                            WHERE bv.buyer_id = t.buyer_id AND bv.xact = pg_current_xact_id()::text::bigint)
        OFFSET 0)
    ), before_rows AS (
      SELECT c.buyer_product_id AS parent_id, c.position, c.provider, c.value
      FROM buyer_product_resource_values AS c JOIN parents ON parents.id = c.buyer_product_id
      WHERE NOT EXISTS (SELECT 1 FROM new_rows AS n WHERE n.buyer_product_id = c.buyer_product_id AND n.position = c.position)
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM buyer_products AS t
      WHERE t.id IN (
        SELECT n.buyer_product_id FROM new_rows AS n
        JOIN old_rows AS o ON o.buyer_product_id = n.buyer_product_id AND o.position = n.position
        WHERE (o.provider, o.value) IS DISTINCT FROM (n.provider, n.value)
      ) AND NOT EXISTS (
        SELECT 1 FROM change_log AS cl
        WHERE cl.buyer_id = t.buyer_id AND cl.record_type = 'buyer_product' AND cl.record_id = t.id
          AND cl.change = 'created'
          AND cl.version = (SELECT bv.version FROM buyer_versions AS bv
                            WHERE bv.buyer_id = t.buyer_id AND bv.xact = pg_current_xact_id()::text::bigint)
        OFFSET 0)
    ), before_rows AS (
      SELECT c.buyer_product_id AS parent_id, c.position, c.provider, c.value
      FROM buyer_product_resource_values AS c JOIN parents ON parents.id = c.buyer_product_id
      WHERE NOT EXISTS (SELECT 1 FROM new_rows AS n WHERE n.buyer_product_id = c.buyer_product_id AND n.position = c.position)
      UNION ALL
      SELECT o.buyer_product_id, o.position, o.provider, o.value
      FROM old_rows AS o JOIN parents ON parents.id = o.buyer_product_id
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  ELSE
    WITH parents AS (
      SELECT t.id, t.buyer_id FROM buyer_products AS t
      WHERE t.id IN (SELECT o.buyer_product_id FROM old_rows AS o)
    ), before_rows AS (
      SELECT c.buyer_product_id AS parent_id, c.position, c.provider, c.value
      FROM buyer_product_resource_values AS c JOIN parents ON parents.id = c.buyer_product_id
      UNION ALL
      SELECT o.buyer_product_id, o.position, o.provider, o.value
      FROM old_rows AS o JOIN parents ON parents.id = o.buyer_product_id
    )
  SELECT array_agg(p.buyer_id), array_agg(p.id),
         array_agg(jsonb_build_object('resource_values', coalesce(l.list, '[]'::jsonb)))
    INTO buyers, ids, previous
  FROM parents AS p
  LEFT JOIN (
    SELECT b.parent_id, jsonb_agg(jsonb_build_object('provider', b.provider, 'value', b.value) ORDER BY b.position) AS list
    FROM before_rows AS b GROUP BY b.parent_id
  ) AS l ON l.parent_id = p.id;
  END IF;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer_product', 'updated', buyers, ids, previous);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER buyer_product_resource_values_change_log_insert AFTER INSERT ON "buyer_product_resource_values"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_product_resource_values();
CREATE TRIGGER buyer_product_resource_values_change_log_update AFTER UPDATE ON "buyer_product_resource_values"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_product_resource_values();
CREATE TRIGGER buyer_product_resource_values_change_log_delete AFTER DELETE ON "buyer_product_resource_values"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_product_resource_values();

-- A buyer's own rows: one entry per row, for that buyer. Creations and
-- deletions read two columns straight from the transition table (one function
-- per table, so the SQL is static and its plan cached); updates compare whole rows.
CREATE FUNCTION change_log_orders_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('order', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('order', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER orders_change_log_insert AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_orders_created();
CREATE TRIGGER orders_change_log_update AFTER UPDATE ON "orders"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('order', 'id', 'buyer_id');
CREATE TRIGGER orders_change_log_delete AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_orders_deleted();
CREATE FUNCTION change_log_buyer_products_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer_product', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_buyer_products_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer_product', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER buyer_products_change_log_insert AFTER INSERT ON "buyer_products"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_products_created();
CREATE TRIGGER buyer_products_change_log_update AFTER UPDATE ON "buyer_products"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('buyer_product', 'id', 'buyer_id');
CREATE TRIGGER buyer_products_change_log_delete AFTER DELETE ON "buyer_products"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_products_deleted();
CREATE FUNCTION change_log_buyer_product_approvals_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer_product_approval', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_buyer_product_approvals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer_product_approval', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER buyer_product_approvals_change_log_insert AFTER INSERT ON "buyer_product_approvals"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_product_approvals_created();
CREATE TRIGGER buyer_product_approvals_change_log_update AFTER UPDATE ON "buyer_product_approvals"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('buyer_product_approval', 'id', 'buyer_id');
CREATE TRIGGER buyer_product_approvals_change_log_delete AFTER DELETE ON "buyer_product_approvals"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyer_product_approvals_deleted();
CREATE FUNCTION change_log_supplier_users_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.created_by_buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('supplier_user', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_supplier_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.created_by_buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('supplier_user', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER supplier_users_change_log_insert AFTER INSERT ON "supplier_users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_supplier_users_created();
CREATE TRIGGER supplier_users_change_log_update AFTER UPDATE ON "supplier_users"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('supplier_user', 'id', 'created_by_buyer_id');
CREATE TRIGGER supplier_users_change_log_delete AFTER DELETE ON "supplier_users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_supplier_users_deleted();
CREATE FUNCTION change_log_taggings_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.taggable_id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tagging', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_taggings_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.taggable_id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tagging', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER taggings_change_log_insert AFTER INSERT ON "taggings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_taggings_created();
CREATE TRIGGER taggings_change_log_delete AFTER DELETE ON "taggings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_taggings_deleted();
CREATE FUNCTION change_log_tags_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tag', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_tags_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tag', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER tags_change_log_insert AFTER INSERT ON "tags"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_tags_created();
CREATE TRIGGER tags_change_log_update AFTER UPDATE ON "tags"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('tag', 'id', 'buyer_id');
CREATE TRIGGER tags_change_log_delete AFTER DELETE ON "tags"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_tags_deleted();
CREATE FUNCTION change_log_tag_groups_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tag_group', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_tag_groups_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('tag_group', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER tag_groups_change_log_insert AFTER INSERT ON "tag_groups"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_tag_groups_created();
CREATE TRIGGER tag_groups_change_log_update AFTER UPDATE ON "tag_groups"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('tag_group', 'id', 'buyer_id');
CREATE TRIGGER tag_groups_change_log_delete AFTER DELETE ON "tag_groups"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_tag_groups_deleted();
CREATE FUNCTION change_log_delivery_sites_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('delivery_site', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_delivery_sites_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('delivery_site', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER delivery_sites_change_log_insert AFTER INSERT ON "delivery_sites"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_delivery_sites_created();
CREATE TRIGGER delivery_sites_change_log_update AFTER UPDATE ON "delivery_sites"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('delivery_site', 'id', 'buyer_id');
CREATE TRIGGER delivery_sites_change_log_delete AFTER DELETE ON "delivery_sites"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_delivery_sites_deleted();
CREATE FUNCTION change_log_supplier_connections_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.supplier_id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('supplier_connection', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_supplier_connections_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.supplier_id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('supplier_connection', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER supplier_connections_change_log_insert AFTER INSERT ON "supplier_connections"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_supplier_connections_created();
CREATE TRIGGER supplier_connections_change_log_update AFTER UPDATE ON "supplier_connections"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('supplier_connection', 'supplier_id', 'buyer_id');
CREATE TRIGGER supplier_connections_change_log_delete AFTER DELETE ON "supplier_connections"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_supplier_connections_deleted();
CREATE FUNCTION change_log_order_events_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('order_event', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION change_log_order_events_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.buyer_id), array_agg(r.id) INTO buyers, ids FROM old_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('order_event', 'deleted', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER order_events_change_log_insert AFTER INSERT ON "order_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_order_events_created();
CREATE TRIGGER order_events_change_log_update AFTER UPDATE ON "order_events"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('order_event', 'id', 'buyer_id');
CREATE TRIGGER order_events_change_log_delete AFTER DELETE ON "order_events"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_order_events_deleted();
CREATE FUNCTION change_log_buyers_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyers uuid[];
  ids uuid[];
BEGIN
  SELECT array_agg(r.id), array_agg(r.id) INTO buyers, ids FROM new_rows AS r;
  IF buyers IS NOT NULL THEN
    PERFORM change_log_append('buyer', 'created', buyers, ids, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER buyers_change_log_insert AFTER INSERT ON "buyers"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_buyers_created();
CREATE TRIGGER buyers_change_log_update AFTER UPDATE ON "buyers"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION change_log_updated('buyer', 'id', 'id');

-- Shared data: an update fans out to the buyers whose responses show the changed columns.
CREATE TRIGGER suppliers_change_log_update AFTER UPDATE ON "suppliers"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION change_log_shared_updated('supplier', 'name');
CREATE TRIGGER products_change_log_update AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION change_log_shared_updated('product', 'name', 'code', 'cas_number', 'product_type');
CREATE TRIGGER order_types_change_log_update AFTER UPDATE ON "order_types"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION change_log_shared_updated('order_type', 'type_of');
