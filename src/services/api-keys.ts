// A buyer's API keys as the operator issues and revokes them.
import { randomUUID } from "node:crypto";
import { generateApiKey, hashApiKey, visibleKeyPrefix } from "../auth/api-key-format.js";
import type { ApiKey, PrismaClient } from "../db/generated/prisma/client.js";

/** Issues a new key for the buyer: only its hash is stored, so `key` is the one chance to show it. */
export async function issueApiKey(
  prisma: PrismaClient,
  buyerId: string,
  name: string | null,
): Promise<{ id: string; prefix: string; key: string }> {
  const key = generateApiKey();
  const created = await prisma.apiKey.create({
    data: { id: randomUUID(), buyerId, name, prefix: visibleKeyPrefix(key), hash: hashApiKey(key) },
    select: { id: true, prefix: true },
  });
  return { ...created, key };
}

/**
 * Revokes the key: requests with it are refused from then on. Null when there
 * is no such key; a key revoked before stays as it was.
 */
export async function revokeApiKey(
  prisma: PrismaClient,
  id: string,
): Promise<{ key: ApiKey; alreadyRevoked: boolean } | null> {
  const key = await prisma.apiKey.findUnique({ where: { id } });
  if (!key) return null;
  if (key.revokedAt) return { key, alreadyRevoked: true };
  const revoked = await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  return { key: revoked, alreadyRevoked: false };
}
