// Decrypting the signing secrets of the endpoints a worker delivers to.
import { decryptSecret } from "../domain/webhook-secrets.js";
import type { ClaimedEndpoint } from "../services/webhook-claim.js";

/** The decrypted signing secrets of the endpoints this worker delivers to. */
export interface SecretCache {
  /** The secrets that sign for `endpoint` at `now`: the current one, and the previous one until it expires. */
  signing(endpoint: ClaimedEndpoint, now: number): string[];
}

/** Endpoints whose secrets are kept decrypted; past this, the least recently added is dropped. */
const CACHED_ENDPOINTS = 1_000;

/**
 * Decrypts an endpoint's secrets once per stored version: an entry serves
 * only while the endpoint's ciphertexts are the ones it was decrypted from,
 * so a rotation is seen by the next claim.
 */
export function createSecretCache(keys: readonly Buffer[]): SecretCache {
  const entries = new Map<
    string,
    { ciphertext: string; previousCiphertext: string | null; current: string; previous: string | null }
  >();
  const decrypted = (endpoint: ClaimedEndpoint) => {
    const cached = entries.get(endpoint.id);
    if (
      cached &&
      cached.ciphertext === endpoint.secretCiphertext &&
      cached.previousCiphertext === endpoint.previousSecretCiphertext
    ) {
      return cached;
    }
    const entry = {
      ciphertext: endpoint.secretCiphertext,
      previousCiphertext: endpoint.previousSecretCiphertext,
      current: decryptSecret(endpoint.secretCiphertext, endpoint.id, keys),
      previous: endpoint.previousSecretCiphertext
        ? decryptSecret(endpoint.previousSecretCiphertext, endpoint.id, keys)
        : null,
    };
    entries.delete(endpoint.id);
    entries.set(endpoint.id, entry);
    const oldest = entries.keys().next();
    if (entries.size > CACHED_ENDPOINTS && !oldest.done) entries.delete(oldest.value);
    return entry;
  };
  return {
    signing(endpoint, now) {
      const { current, previous } = decrypted(endpoint);
      const previousSigns = previous !== null && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > now;
      return previousSigns ? [current, previous] : [current];
    },
  };
}
