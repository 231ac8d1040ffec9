import type { PrismaClient } from "../db/generated/prisma/client.js";
import { API_KEY_PREFIX, hashApiKey } from "./api-key-format.js";
import type { Viewer } from "./viewer.js";

/** `last_used_at` is refreshed at most this often per key, so reads do not all become writes. */
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_KEY_LENGTH = 200;

export interface Authenticator {
  /** The viewer of a key, or null for a missing, malformed, unknown or revoked key. */
  authenticate(key: string | null): Promise<Viewer | null>;
}

export function createAuthenticator(prisma: PrismaClient, onError: (error: unknown) => void): Authenticator {
  return {
    async authenticate(key) {
      if (!key?.startsWith(API_KEY_PREFIX) || key.length > MAX_KEY_LENGTH) return null;
      // Looked up by hash: no secret is ever compared character by character.
      const record = await prisma.apiKey.findUnique({
        where: { hash: hashApiKey(key) },
        select: { id: true, buyerId: true, revokedAt: true, lastUsedAt: true },
      });
      if (!record || record.revokedAt) return null;
      const now = Date.now();
      if (!record.lastUsedAt || now - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        prisma.apiKey
          .update({ where: { id: record.id }, data: { lastUsedAt: new Date(now) }, select: { id: true } })
          .catch(onError);
      }
      return { buyerId: record.buyerId, apiKeyId: record.id };
    },
  };
}
