import { createHash, randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/prisma/client.js";
import {
  findCandidates,
  type MatchCandidate,
  type MatchKeys,
  type MatchStrategy,
  matchKeys,
  type ProductDescription,
} from "./match-rules.js";

export { type MatchStrategy, type ProductDescription, SIMILAR_NAME_THRESHOLD } from "./match-rules.js";

export interface AutoMatchResult {
  productId: string;
  matched: boolean;
  strategy: MatchStrategy | "none";
  /** 1 for exact rules, the trigram similarity for `similar_name`, 0 when a new product was created. */
  score: number;
}

type Transaction = Prisma.TransactionClient;

/**
 * Finds the catalogue product a buyer product describes (docs/decisions.md §3 "Auto-match criteria", first
 * rule that hits wins) or creates one. Runs inside the caller's transaction.
 * Concurrent creations of the same new product create it once: see lockNewProduct.
 */
export async function matchOrCreateProduct(
  tx: Transaction,
  description: ProductDescription,
): Promise<AutoMatchResult> {
  const keys = matchKeys(description);
  // Most descriptions match; they need no lock, as products are never deleted.
  const [hit] = await findCandidates(tx, keys, 1);
  if (hit) return matched(hit);

  await lockNewProduct(tx, keys);
  // Whoever held the lock before us may have just created this very product.
  const [late] = await findCandidates(tx, keys, 1);
  if (late) return matched(late);

  const code = description.rawMaterialCode?.trim() || null;
  const product = await tx.product.create({
    data: {
      id: randomUUID(),
      name: description.rawMaterialName,
      normalizedName: keys.normalizedName,
      code,
      normalizedCode: keys.normalizedCode || null,
      casNumber: keys.casNumbers[0] ?? null,
      synonyms: [],
      normalizedSynonyms: [],
      productType: description.productType,
    },
    select: { id: true },
  });
  return { productId: product.id, matched: false, strategy: "none", score: 0 };
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
 * be matched by: its type (names, synonyms and similar names are compared
 * within a type, so two similar new names must not pass each other), and its
 * CAS numbers and code (compared across types). Taken in one global order
 * (ascending key), so two creations never wait on each other in a cycle.
 */
async function lockNewProduct(tx: Transaction, keys: MatchKeys): Promise<void> {
  const identities = [
    `product-type:${keys.productType}`,
    ...keys.casNumbers.map((cas) => `cas:${cas}`),
    ...(keys.normalizedCode ? [`code:${keys.normalizedCode}`] : []),
  ];
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
