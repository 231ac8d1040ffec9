// Looking up a presented API key, shared by the admission of every request
// (src/http/admission.ts) and the benchmark's peers.
import { stampLastUsed } from "../db/api-key-use.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { API_KEY_PREFIX, hashApiKey } from "./api-key-format.js";

/** `last_used_at` is refreshed at most this often per key, so reads do not all become writes. */
const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_KEY_LENGTH = 200;

/** The hash to look a presented key up by, or null when it cannot be one of ours. */
export function lookupHash(key: string | null): string | null {
  if (!key?.startsWith(API_KEY_PREFIX) || key.length > MAX_KEY_LENGTH) return null;
  // Looked up by hash: no secret is ever compared character by character.
  return hashApiKey(key);
}

/** Keys whose `last_used_at` this process is stamping now: requests admitted together all saw it stale. */
const stamping = new Set<string>();

/** Stamps `last_used_at` beside the response, never in its way, once at a time per key. */
export function refreshLastUsed(
  prisma: PrismaClient,
  apiKeyId: string,
  lastUsedAt: Date | null,
  onError: (error: unknown) => void,
): void {
  const now = Date.now();
  if (lastUsedAt && now - lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return;
  if (stamping.has(apiKeyId)) return;
  stamping.add(apiKeyId);
  stampLastUsed(prisma, apiKeyId, new Date(now))
    .catch(onError)
    .finally(() => stamping.delete(apiKeyId));
}
