import type { PrismaClient } from "../db/generated/prisma/client.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A first request that has not finished after this long is presumed dead and may be retried. */
const STALE_IN_PROGRESS_MS = 60_000;

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "mismatch" }
  | { kind: "in_progress" };

export interface IdempotencyStore {
  claim(apiKeyId: string, key: string, requestHash: string): Promise<IdempotencyClaim>;
  complete(apiKeyId: string, key: string, status: number, body: string): Promise<void>;
  release(apiKeyId: string, key: string): Promise<void>;
}

/** Idempotency records live in the database so that every server process sees them. */
export function createIdempotencyStore(prisma: PrismaClient): IdempotencyStore {
  return {
    async claim(apiKeyId, key, requestHash) {
      const now = new Date();
      const expiresAt = new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS);
      const staleBefore = new Date(now.getTime() - STALE_IN_PROGRESS_MS);
      // Insert, or take over a record that expired or whose first request died.
      const claimed = await prisma.$queryRaw<{ api_key_id: string }[]>`
        INSERT INTO idempotency_records (api_key_id, key, request_hash, created_at, expires_at)
        VALUES (${apiKeyId}::uuid, ${key}, ${requestHash}, ${now}, ${expiresAt})
        ON CONFLICT (api_key_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_body = NULL,
              created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
          WHERE idempotency_records.expires_at < ${now}
             OR (idempotency_records.response_status IS NULL AND idempotency_records.created_at < ${staleBefore})
        RETURNING api_key_id::text`;
      if (claimed.length > 0) return { kind: "claimed" };
      const existing = await prisma.idempotencyRecord.findUnique({
        where: { apiKeyId_key: { apiKeyId, key } },
        select: { requestHash: true, responseStatus: true, responseBody: true },
      });
      if (!existing) return this.claim(apiKeyId, key, requestHash);
      if (existing.requestHash !== requestHash) return { kind: "mismatch" };
      if (existing.responseStatus === null || existing.responseBody === null) return { kind: "in_progress" };
      return { kind: "replay", status: existing.responseStatus, body: existing.responseBody };
    },
    async complete(apiKeyId, key, status, body) {
      await prisma.idempotencyRecord.update({
        where: { apiKeyId_key: { apiKeyId, key } },
        data: { responseStatus: status, responseBody: body },
      });
    },
    async release(apiKeyId, key) {
      await prisma.idempotencyRecord.deleteMany({ where: { apiKeyId, key, responseStatus: null } });
    },
  };
}
