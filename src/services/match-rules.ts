// The five auto-match rules of docs/design/decisions.md §3 "Auto-match criteria", in order, as catalogue queries.
// Each rule ranks its own hits; the first rule with a hit decides the match (src/domain/match-rules.ts).
// Deterministic: every ordering ends in (created_at, id).
import { Prisma } from "../db/generated/prisma/client.js";
import { contractSpelling } from "../domain/contract-vocabulary.js";
import {
  type CatalogueNameHit,
  contradictingNameFound,
  type MatchCandidate,
  type MatchKeys,
  type RuleHit,
  rankCandidates,
  SIMILAR_NAME_CANDIDATES,
  SIMILAR_NAME_THRESHOLD,
} from "../domain/match-rules.js";

type Queryable = Pick<Prisma.TransactionClient, "$queryRaw">;

/**
 * Catalogue products that `keys` match, best first: by rule, then within a
 * rule as the rule ranks them; each product once, under its first rule. The
 * first candidate is the match. At most `limit`.
 */
export async function findCandidates(
  db: Queryable,
  keys: MatchKeys,
  limit: number,
): Promise<MatchCandidate[]> {
  const query = candidatesQuery(keys, limit);
  if (!query) return [];
  const rows = await db.$queryRaw<RuleHit[]>(query);
  return rankCandidates(keys, rows, limit);
}

/**
 * Which products rules 3 to 5 may consider, given the buyer's valid CAS numbers.
 * A CAS number the buyer gave that no product has (else rule 1 had hit) says the
 * substance is not one whose CAS the catalogue records: products with a CAS
 * number are no candidates by name. A product created after such a
 * contradiction keeps the disputed numbers (never matched by CAS): its name
 * matches only a buyer who makes the same claim, so it never stands in for
 * the product whose CAS number contradicted it.
 */
function nameRuleCasFilter(casNumbers: readonly string[]): Prisma.Sql {
  if (casNumbers.length === 0) return Prisma.sql`AND coalesce(cardinality(disputed_cas_numbers), 0) = 0`;
  return Prisma.sql`AND cas_number IS NULL
    AND (coalesce(cardinality(disputed_cas_numbers), 0) = 0 OR disputed_cas_numbers && ${casNumbers}::text[])`;
}

/**
 * Whether the buyer's name names, by rule 3, 4 or 5 (guard included) and in
 * any product type, a product whose CAS number is not one the buyer gave:
 * then the buyer's CAS number contradicts the catalogue, and a product
 * created for the buyer must not carry it (else a later description with that
 * number would be linked to this name). Asked only before creating, when rule
 * 1 has missed, so no product carries any of the buyer's numbers.
 */
export async function contradictsCatalogue(db: Queryable, keys: MatchKeys): Promise<boolean> {
  const name = keys.normalizedName;
  if (keys.casNumbers.length === 0 || !name) return false;
  // Every type, spelt out so that the (product_type, …) indexes serve the lookups.
  const anyType = Prisma.sql`product_type = ANY(enum_range(NULL::"ProductType"))`;
  const rows = await db.$queryRaw<CatalogueNameHit[]>`
    SELECT normalized_name, true AS exact FROM (
      (SELECT normalized_name FROM products
       WHERE ${anyType} AND normalized_name = ${name} AND cas_number IS NOT NULL LIMIT 1)
      UNION ALL
      (SELECT normalized_name FROM products
       WHERE normalized_synonyms @> ARRAY[${name}]::text[] AND cas_number IS NOT NULL LIMIT 1)
    ) AS same
    UNION ALL
    (SELECT normalized_name, false AS exact FROM products
     WHERE ${anyType}
       AND similar_name_key(normalized_name) = similar_name_key(${name})
       AND normalized_name <> ${name}
       AND cas_number IS NOT NULL
       AND similarity(normalized_name, ${name}) >= ${SIMILAR_NAME_THRESHOLD}
     ORDER BY similarity(normalized_name, ${name}) DESC
     LIMIT ${SIMILAR_NAME_CANDIDATES})`;
  return contradictingNameFound(name, rows);
}

/**
 * All five rules in one statement (one round trip; each rule is an index
 * lookup, so asking every rule costs less than asking them in turn), or null
 * when the description gives nothing to look up. Each rule ranks its own
 * rows; `rule` then orders the rules. Exported so that `npm run bench:match`
 * can EXPLAIN exactly this statement.
 */
export function candidatesQuery(keys: MatchKeys, limit: number): Prisma.Sql | null {
  const type = Prisma.sql`${contractSpelling(keys.productType)}::"ProductType"`;
  const rules: Prisma.Sql[] = [];
  // CAS numbers and codes are not per type, but a product of the buyer's type is the likelier one.
  keys.casNumbers.forEach((casNumber, index) => {
    rules.push(Prisma.sql`(
      SELECT id, 1 AS rule, ${index}::int AS position, (product_type = ${type}) AS same_type,
             1::float8 AS score, normalized_name, created_at
      FROM products WHERE cas_number = ${casNumber}
      ORDER BY same_type DESC, created_at ASC, id ASC LIMIT ${limit})`);
  });
  // Only curated codes: auto-match never stores a buyer's code, which is private and
  // means something else in another buyer's numbering.
  if (keys.normalizedCode) {
    rules.push(Prisma.sql`(
      SELECT id, 2 AS rule, 0 AS position, (product_type = ${type}) AS same_type,
             1::float8 AS score, normalized_name, created_at
      FROM products WHERE normalized_code = ${keys.normalizedCode} AND origin_buyer_product_id IS NULL
      ORDER BY same_type DESC, created_at ASC, id ASC LIMIT ${limit})`);
  }
  // A name with nothing left after normalising (only punctuation or emoji) never matches by name.
  if (keys.normalizedName) {
    const name = keys.normalizedName;
    const noOtherCas = nameRuleCasFilter(keys.casNumbers);
    rules.push(Prisma.sql`(
      SELECT id, 3 AS rule, 0 AS position, true AS same_type, 1::float8 AS score, normalized_name, created_at
      FROM products WHERE product_type = ${type} AND normalized_name = ${name} ${noOtherCas}
      ORDER BY created_at ASC, id ASC LIMIT ${limit})`);
    rules.push(Prisma.sql`(
      SELECT id, 4 AS rule, 0 AS position, true AS same_type, 1::float8 AS score, normalized_name, created_at
      FROM products
      WHERE product_type = ${type} AND normalized_synonyms @> ARRAY[${name}]::text[] ${noOtherCas}
      ORDER BY created_at ASC, id ASC LIMIT ${limit})`);
    // similar_name_key (see its migration) is a necessary condition of the guard, so this
    // reads through a btree the few rows the guard could accept, not trigram posting lists.
    // Same names were rule 3's.
    rules.push(Prisma.sql`(
      SELECT id, 5 AS rule, 0 AS position, true AS same_type,
             similarity(normalized_name, ${name})::float8 AS score, normalized_name, created_at
      FROM products
      WHERE product_type = ${type}
        AND similar_name_key(normalized_name) = similar_name_key(${name})
        AND normalized_name <> ${name} ${noOtherCas}
        AND similarity(normalized_name, ${name}) >= ${SIMILAR_NAME_THRESHOLD}
      ORDER BY score DESC, created_at ASC, id ASC LIMIT ${SIMILAR_NAME_CANDIDATES})`);
  }
  if (rules.length === 0) return null;
  return Prisma.sql`
    SELECT id::text AS id, rule, normalized_name, score
    FROM (${Prisma.join(rules, " UNION ALL ")}) AS hits
    ORDER BY rule ASC, position ASC, same_type DESC, score DESC, created_at ASC, id ASC`;
}
