import { lookupHash, refreshLastUsed } from "../../src/auth/api-key-lookup.js";
import type { Viewer } from "../../src/auth/viewer.js";
import type { PrismaClient } from "../../src/db/generated/prisma/client.js";

export interface Authenticator {
  /** The viewer of a key, or null for a missing, malformed, unknown or revoked key. */
  authenticate(key: string | null): Promise<Viewer | null>;
}

/**
 * The gateway's key lookup without its rate limit, for the peers: the service
 * admits requests with `createAdmission` (src/http/admission.ts), which looks
 * the key up and counts the request in one statement.
 */
export function createAuthenticator(prisma: PrismaClient, onError: (error: unknown) => void): Authenticator {
  return {
    async authenticate(key) {
      const hash = lookupHash(key);
      if (hash === null) return null;
      const record = await prisma.apiKey.findUnique({
        where: { hash },
        select: { id: true, buyerId: true, revokedAt: true, lastUsedAt: true },
      });
      if (!record || record.revokedAt) return null;
      refreshLastUsed(prisma, record.id, record.lastUsedAt, onError);
      return { buyerId: record.buyerId, apiKeyId: record.id };
    },
  };
}
