// The five auto-match rules of docs/design/decisions.md §3 "Auto-match criteria", in order: what they
// compare, and how their hits rank. The catalogue queries are src/services/match-rules.ts.
// Deterministic: every ordering ends in (created_at, id).
import type { ProductType } from "../db/generated/prisma/enums.js";
import { findCasNumbers, normalizeProductCode, normalizeProductNameForType } from "./product-identity.js";
import { similarityVeto } from "./similarity-guard.js";

export type MatchStrategy = "cas_number" | "code" | "name" | "synonym" | "similar_name";

/** The strategy recorded when no catalogue product matched, and one was created. */
export const NO_MATCH = "none";

export interface ProductDescription {
  rawMaterialName: string;
  rawMaterialCode?: string | null | undefined;
  productType: ProductType;
}

/** What the rules compare, computed once from a description. */
export interface MatchKeys {
  productType: ProductType;
  normalizedName: string;
  normalizedCode: string;
  /** Valid CAS numbers from the code, then the name, without repeats. */
  casNumbers: string[];
}

export interface MatchCandidate {
  productId: string;
  strategy: MatchStrategy;
  /** 1 for exact rules, the trigram similarity (3 decimals) for `similar_name`. */
  score: number;
}

/** docs/design/decisions.md §3 "Auto-match criteria", rule 5: the least trigram similarity, same product type. */
export const SIMILAR_NAME_THRESHOLD = 0.8;

export function matchKeys(description: ProductDescription): MatchKeys {
  const code = description.rawMaterialCode ?? "";
  return {
    productType: description.productType,
    normalizedName: normalizeProductNameForType(description.rawMaterialName, description.productType),
    normalizedCode: code ? normalizeProductCode(code) : "",
    casNumbers: [...new Set([...findCasNumbers(code), ...findCasNumbers(description.rawMaterialName)])],
  };
}

/** A product a rule's query found: which rule (1 to 5), its normalised name and its similarity. */
export interface RuleHit {
  id: string;
  rule: number;
  normalized_name: string;
  score: number;
}

/**
 * The candidates among rule hits ordered by rule and then as each rule ranks
 * them: each product once, under its first rule; a similar name only where
 * the guard accepts it. At most `limit`.
 */
export function rankCandidates(keys: MatchKeys, hits: readonly RuleHit[], limit: number): MatchCandidate[] {
  const found: MatchCandidate[] = [];
  for (const row of hits) {
    if (found.length >= limit) break;
    if (found.some((candidate) => candidate.productId === row.id)) continue;
    const strategy = STRATEGY_OF_RULE[row.rule];
    if (!strategy) continue;
    if (strategy === "similar_name" && similarityVeto(keys.normalizedName, row.normalized_name) !== null)
      continue;
    found.push({
      productId: row.id,
      strategy,
      score: strategy === "similar_name" ? Math.round(row.score * 1000) / 1000 : 1,
    });
  }
  return found;
}

const STRATEGY_OF_RULE: Record<number, MatchStrategy> = {
  1: "cas_number",
  2: "code",
  3: "name",
  4: "synonym",
  5: "similar_name",
};

/** A catalogue name with a CAS number, found for a buyer's name: the same name (or synonym), or a similar one. */
export interface CatalogueNameHit {
  normalized_name: string;
  exact: boolean;
}

/** Whether one of the hits names the buyer's `name`: the same name, or a similar one the guard accepts. */
export function contradictingNameFound(name: string, hits: readonly CatalogueNameHit[]): boolean {
  return hits.some((hit) => hit.exact || similarityVeto(name, hit.normalized_name) === null);
}

/** Similar names read per lookup; the guard may refuse the best ones and accept a later one. */
export const SIMILAR_NAME_CANDIDATES = 20;
