-- Auto-match rule 5 (similar names) looks up candidates by this key instead
-- of scanning the GIN trigram index: at 100,000 products a name made of
-- common words ("... sarcosinate 58%") made that scan cost ~30 ms.
--
-- The key is the set of characters of a normalised name without spaces, "e"
-- and "s". The similar-name guard (src/domain/similarity-guard.ts) only
-- accepts names that differ by word order, spacing, a trailing "e" or "s", or
-- a doubled letter, none of which change this set; so every name the guard
-- could accept has the same key, and the lookup finds all of them.
--
-- Written by hand: Prisma models neither functions nor expression indexes
-- (and its diff ignores both, so schema.prisma stays in step).
CREATE FUNCTION similar_name_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (
    SELECT coalesce(string_agg(c, '' ORDER BY c), '')
    FROM (SELECT DISTINCT c COLLATE "C" AS c FROM regexp_split_to_table(translate(name, ' es', ''), '') AS c) AS letters
  );

CREATE INDEX "products_similar_name_key_idx" ON "products" ("product_type", similar_name_key("normalized_name"));
