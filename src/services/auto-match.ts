import { createHash, randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/prisma/client.js";
import {
  type MatchCandidate,
  type MatchKeys,
  type MatchStrategy,
  matchKeys,
  NO_MATCH,
  type ProductDescription,
} from "../domain/match-rules.js";
import { contradictsCatalogue, findCandidates } from "./match-rules.js";

export interface AutoMatchResult {
  productId: string;
  matched: boolean;
  strategy: MatchStrategy | typeof NO_MATCH;
  /** 1 for exact rules, the trigram similarity for `similar_name`, 0 when a new product was created. */
  score: number;
}

type Transaction = Prisma.TransactionClient;

/**
 * Finds the catalogue product a buyer product describes (docs/design/decisions.md §3 "Auto-match criteria", first
 * rule that hits wins) or creates one. Runs inside the caller's transaction.
 * Concurrent creations of the same new product create it once: see lockNewProduct.
 * `buyerProductId` is the buyer product being created: a new catalogue product
 * records it as its origin instead of copying the buyer's text.
 */
export async function matchOrCreateProduct(
  tx: Transaction,
  description: ProductDescription,
  buyerProductId: string,
): Promise<AutoMatchResult> {
  const keys = matchKeys(description);
  // Most descriptions match; they need no lock, as products are never deleted.
  const [hit] = await findCandidates(tx, keys, 1);
  if (hit) return matched(hit);

  await lockNewProduct(tx, keys);
  // Whoever held the lock before us may have just created this very product.
  const [late] = await findCandidates(tx, keys, 1);
  if (late) return matched(late);

  // The catalogue keeps what identifies the substance, not the buyer's words: no name, no
  // code (a buyer's code is private, and another buyer's numbering may reuse it), and a CAS
  // number only when the catalogue does not contradict it.
  const disputed = await contradictsCatalogue(tx, keys);
  const product = await tx.product.create({
    data: {
      id: randomUUID(),
      name: null,
      normalizedName: keys.normalizedName,
      code: null,
      normalizedCode: null,
      casNumber: disputed ? null : (keys.casNumbers[0] ?? null),
      disputedCasNumbers: disputed ? keys.casNumbers : [],
      synonyms: [],
      normalizedSynonyms: [],
      productType: description.productType,
      originBuyerProductId: buyerProductId,
    },
    select: { id: true },
  });
  return { productId: product.id, matched: false, strategy: NO_MATCH, score: 0 };
}

function matched(candidate: MatchCandidate): AutoMatchResult {
  return {
    productId: candidate.productId,
    matched: true,
    strategy: candidate.strategy,
    score: candidate.score,
  };
}

/**
 * Transaction-scoped advisory locks on everything a new product could later
 * be matched by, so that two creations that could match each other run one
 * after the other (the second then finds the first's product) while all
 * others run side by side. Names: rules 3 and 5 only ever pair names with
 * the same similar-name key (see similar_name_key's migration), so the key
 * names the lock; not per product type, because the CAS check before creating
 * (contradictsCatalogue) compares names across types. CAS numbers: compared
 * across types. A new product has no code or synonyms to lock. Taken in one
 * global order (ascending lock key), so two creations never wait on each
 * other in a cycle. docs/reference/auto-match.md "Concurrent creations" tells why this suffices.
 */
async function lockNewProduct(tx: Transaction, keys: MatchKeys): Promise<void> {
  const identities = keys.casNumbers.map((cas) => `cas:${cas}`);
  // A name left empty by normalising matches nothing by name.
  if (keys.normalizedName) {
    const [row] = await tx.$queryRaw<
      { key: string }[]
    >`SELECT similar_name_key(${keys.normalizedName}) AS key`;
    identities.push(`similar-name:${row?.key ?? ""}`);
  }
  const lockKeys = [...new Set(identities.map(lockKey))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of lockKeys) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${key.toString()}::bigint)`;
  }
}

/** A signed 64-bit lock key: the first 8 bytes of the identity's SHA-256, under an auto-match namespace. */
function lockKey(identity: string): bigint {
  const digest = createHash("sha256").update(`auto-match:${identity}`).digest();
  return digest.readBigInt64BE(0);
}
