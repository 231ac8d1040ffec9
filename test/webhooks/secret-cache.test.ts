// Which secrets sign a delivery: the endpoint's current secret, and after a
// rotation the previous one too until it expires, so a receiver that has not
// switched yet still verifies. A rotation is seen at once, never a stale secret.
import { describe, expect, it } from "vitest";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import type { ClaimedEndpoint } from "../../src/services/webhook-claim.js";
import { createSecretCache } from "../../src/webhooks/secret-cache.js";

const KEYS = [Buffer.alloc(32, 7)];
const ENDPOINT_ID = "5d3f0a4e-8a43-4c8e-9a57-3c2b9f0e1d21";
const NOW = Date.parse("2026-06-01T12:00:00Z");

function endpoint(
  current: string,
  previous: { secret: string; expiresAt: Date } | null = null,
): ClaimedEndpoint {
  return {
    id: ENDPOINT_ID,
    url: "https://receiver.example/hooks",
    status: "enabled",
    secretCiphertext: encryptSecret(current, ENDPOINT_ID, KEYS),
    previousSecretCiphertext: previous ? encryptSecret(previous.secret, ENDPOINT_ID, KEYS) : null,
    previousSecretExpiresAt: previous?.expiresAt ?? null,
  };
}

describe("the secrets that sign a delivery", () => {
  const first = generateSigningSecret();
  const second = generateSigningSecret();

  it("are the current secret alone, decrypted", () => {
    expect(createSecretCache(KEYS).signing(endpoint(first), NOW)).toEqual([first]);
  });

  it("include the previous secret after a rotation, until it expires", () => {
    const rotated = endpoint(second, { secret: first, expiresAt: new Date(NOW + 60_000) });
    const cache = createSecretCache(KEYS);
    expect(cache.signing(rotated, NOW)).toEqual([second, first]);
    expect(cache.signing(rotated, NOW + 60_000)).toEqual([second]);
  });

  it("follow a rotation at the next claim, never a secret decrypted before it", () => {
    const cache = createSecretCache(KEYS);
    expect(cache.signing(endpoint(first), NOW)).toEqual([first]);
    expect(cache.signing(endpoint(second), NOW)).toEqual([second]);
  });

  it("cannot be read with another key: the delivery fails rather than sign wrongly", () => {
    expect(() => createSecretCache([Buffer.alloc(32, 8)]).signing(endpoint(first), NOW)).toThrow();
  });
});
