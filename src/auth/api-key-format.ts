import { hash, randomBytes } from "node:crypto";

/** `bpk_` and 40 URL-safe random characters (30 random bytes). */
export const API_KEY_PREFIX = "bpk_";
const VISIBLE_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(30).toString("base64url")}`;
}

/** Keys are stored and looked up only by this hash; the key itself is never kept. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** The part of a key shown in listings so operators can tell keys apart. */
export function visibleKeyPrefix(key: string): string {
  return key.slice(0, VISIBLE_PREFIX_LENGTH);
}
