// Signing secrets are kept only encrypted: readable with the key that sealed
// them, on the row they belong to, and after a key rotation while the old key
// is still configured.
import { describe, expect, it } from "vitest";
import {
  decryptAtRest,
  decryptSecret,
  encryptAtRest,
  encryptedWithCurrentKey,
  encryptSecret,
  generateSigningSecret,
  isEncryptedAtRest,
  SECRET_PREFIX,
  SecretKeyMissingError,
} from "../../src/domain/webhook-secrets.js";

const OLD_KEY = Buffer.alloc(32, 1);
const NEW_KEY = Buffer.alloc(32, 2);

describe("signing secrets", () => {
  it("are Standard Webhooks secrets of 32 random bytes, different each time", () => {
    const secret = generateSigningSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), "base64")).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it("are stored without the secret's text, and read back with the key", () => {
    const secret = generateSigningSecret();
    const stored = encryptSecret(secret, "endpoint-1", [OLD_KEY]);
    expect(stored).not.toContain(secret.slice(SECRET_PREFIX.length));
    expect(stored).not.toContain(SECRET_PREFIX);
    expect(isEncryptedAtRest(stored)).toBe(true);
    expect(decryptSecret(stored, "endpoint-1", [OLD_KEY])).toBe(secret);
  });

  it("do not decrypt on another endpoint's row", () => {
    const stored = encryptSecret(generateSigningSecret(), "endpoint-1", [OLD_KEY]);
    expect(() => decryptSecret(stored, "endpoint-2", [OLD_KEY])).toThrow();
  });

  it("sealed with the previous key still read after a rotation, and say they need re-encrypting", () => {
    const stored = encryptAtRest("payload", "row", [OLD_KEY]);
    expect(decryptAtRest(stored, "row", [NEW_KEY, OLD_KEY], "the record")).toBe("payload");
    expect(encryptedWithCurrentKey(stored, [NEW_KEY, OLD_KEY])).toBe(false);
    expect(encryptedWithCurrentKey(encryptAtRest("payload", "row", [NEW_KEY]), [NEW_KEY, OLD_KEY])).toBe(
      true,
    );
  });

  it("without the key that sealed them, say which record and key are missing", () => {
    const stored = encryptSecret("whsec_x", "endpoint-9", [OLD_KEY]);
    expect(() => decryptSecret(stored, "endpoint-9", [NEW_KEY])).toThrow(SecretKeyMissingError);
    expect(() => decryptSecret(stored, "endpoint-9", [NEW_KEY])).toThrow(
      /webhook endpoint endpoint-9.*key id/,
    );
  });

  it("cannot be sealed without a key", () => {
    expect(() => encryptAtRest("x", "row", [])).toThrow("no webhook secret key configured");
  });

  it("JSON kept in clear is never taken for a sealed text", () => {
    expect(isEncryptedAtRest('{"status":200}')).toBe(false);
  });
});
