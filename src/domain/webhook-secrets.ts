// Signing secrets: made here, shown to the buyer once, stored only encrypted
// with a key from configuration (WEBHOOK_SECRET_KEY), so that a database dump
// alone does not let anyone sign. The same encryption keeps idempotency
// records, which hold the responses that showed a secret, in the same state.
// docs/reference/operations.md says how to rotate the key.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** The Standard Webhooks form: `whsec_` and the base64 of the key bytes. */
export const SECRET_PREFIX = "whsec_";

const SECRET_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = "v1";

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** A short public name of an encryption key, stored beside each ciphertext so decryption picks the right key. */
function keyId(key: Buffer): string {
  return createHash("sha256").update("webhook-secret-key:").update(key).digest("hex").slice(0, 12);
}

/**
 * AES-256-GCM under the current key (`keys[0]`). `boundTo` is bound in as
 * associated data (a secret's endpoint id, an idempotency record's owner and
 * key), so a ciphertext copied to another row does not decrypt.
 */
export function encryptAtRest(plaintext: string, boundTo: string, keys: readonly Buffer[]): string {
  const [key] = keys;
  if (!key) throw new Error("no webhook secret key configured");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [FORMAT, keyId(key), iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export class SecretKeyMissingError extends Error {
  override readonly name = "SecretKeyMissingError";
}

/**
 * The text `encryptAtRest` sealed, with whichever configured key encrypted it;
 * throws SecretKeyMissingError, saying what `what` names, when none did.
 */
export function decryptAtRest(
  stored: string,
  boundTo: string,
  keys: readonly Buffer[],
  what: string,
): string {
  const [format, id, iv, tag, ciphertext] = stored.split(".");
  const key = keys.find((candidate) => keyId(candidate) === id);
  if (format !== FORMAT || !key || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new SecretKeyMissingError(`${what} was encrypted with a key that is not configured (key id ${id})`);
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(boundTo, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}

/** Whether stored text is in the form `encryptAtRest` writes; JSON kept in clear never starts so. */
export function isEncryptedAtRest(stored: string): boolean {
  return stored.startsWith(`${FORMAT}.`);
}

/** A signing secret, bound to its endpoint's id. */
export function encryptSecret(secret: string, endpointId: string, keys: readonly Buffer[]): string {
  return encryptAtRest(secret, endpointId, keys);
}

/** The signing secret, with whichever configured key encrypted it; throws when none did. */
export function decryptSecret(stored: string, endpointId: string, keys: readonly Buffer[]): string {
  return decryptAtRest(stored, endpointId, keys, `the signing secret of webhook endpoint ${endpointId}`);
}

/** Whether a stored secret is already under the current key (re-encryption skips those). */
export function encryptedWithCurrentKey(stored: string, keys: readonly Buffer[]): boolean {
  const [key] = keys;
  return key !== undefined && stored.split(".")[1] === keyId(key);
}

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
