// How a product's name, code and CAS number are reduced to the keys that
// auto-match compares (docs/design/decisions.md §3 "Auto-match criteria"; docs/reference/auto-match.md).
// The import stores these keys, so a change here needs
// `npm run cli -- catalogue renormalize` on existing databases.
import { normalizeName } from "./name-normalization.js";

export { findCasNumbers, isValidCasNumber } from "./cas-number.js";

/**
 * The normalisation of docs/design/decisions.md §3 (NFKC, case-folded, punctuation removed,
 * whitespace collapsed) plus the domain rules of docs/reference/auto-match.md: spelling
 * variants, grades, hydrate and salt notation. Pack sizes stay: this is the
 * form for Packaging, whose size is part of what it is. Catalogue keys are
 * written with `normalizeProductNameForType`.
 */
export function normalizeProductName(name: string): string {
  return normalizeName(name, { keepPackSizes: true });
}

/**
 * The name key of a product of `productType` (Prisma or contract spelling):
 * for anything but Packaging, pack sizes ("250 kg drum") are dropped too.
 */
export function normalizeProductNameForType(name: string, productType: string): string {
  return normalizeName(name, { keepPackSizes: productType === "Packaging" });
}

/** Codes compare case-insensitively, ignoring surrounding space and invisible characters. */
export function normalizeProductCode(code: string): string {
  return code
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .trim()
    .toLowerCase();
}

export interface CatalogueKeys {
  normalizedName: string;
  normalizedCode: string | null;
  normalizedSynonyms: string[];
}

/** The stored match keys of a catalogue product: what the import writes and `catalogue renormalize` rewrites. */
export function catalogueKeys(product: {
  name: string;
  code: string | null;
  synonyms: readonly string[];
  productType: string;
}): CatalogueKeys {
  return {
    normalizedName: normalizeProductNameForType(product.name, product.productType),
    normalizedCode: product.code === null ? null : normalizeProductCode(product.code),
    normalizedSynonyms: product.synonyms.map((synonym) =>
      normalizeProductNameForType(synonym, product.productType),
    ),
  };
}
