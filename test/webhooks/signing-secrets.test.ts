// Signing secrets: Standard Webhooks secrets that sign every delivery (both
// of them after a rotation), stored encrypted under the configured key.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_WEBHOOK_SECRET_KEY, loadConfig, usesDevelopmentKey } from "../../src/config.js";
import {
  decryptSecret,
  encryptSecret,
  generateSigningSecret,
  SecretKeyMissingError,
} from "../../src/domain/webhook-secrets.js";
import { signatureHeaders } from "../../src/webhooks/send.js";

describe("signing secrets", () => {
  const key = Buffer.alloc(32, 7);
  const oldKey = Buffer.alloc(32, 9);

  it("are Standard Webhooks secrets that the standardwebhooks library verifies with", () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: "e1", type: "order.updated" });
    const headers = signatureHeaders({ id: "msg_1", body, secrets: [secret] }, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("after a rotation both secrets sign, so receivers holding either verify", () => {
    const [previous, current] = [generateSigningSecret(), generateSigningSecret()];
    const body = "{}";
    const headers = signatureHeaders({ id: "msg_2", body, secrets: [current, previous] }, new Date());
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
  });

  it("are stored encrypted: the stored text holds no part of the secret, and only the configured key opens it", () => {
    const secret = generateSigningSecret();
    const stored = encryptSecret(secret, "endpoint-1", [key]);
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(stored, "endpoint-1", [key])).toBe(secret);
    expect(() => decryptSecret(stored, "endpoint-2", [key])).toThrow();
    expect(() => decryptSecret(stored, "endpoint-1", [oldKey])).toThrow(SecretKeyMissingError);
  });

  it("encrypted under a previous key still open while that key is listed after the new one", () => {
    const secret = generateSigningSecret();
    const stored = encryptSecret(secret, "endpoint-1", [oldKey]);
    expect(decryptSecret(stored, "endpoint-1", [key, oldKey])).toBe(secret);
  });

  it("need WEBHOOK_SECRET_KEY in production; elsewhere the development key stands in", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/WEBHOOK_SECRET_KEY: must be set/);
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: "short" })).toThrow(/WEBHOOK_SECRET_KEY: must be 32 bytes/);
    const development = loadConfig({});
    expect(usesDevelopmentKey(development.webhooks)).toBe(true);
    expect(development.webhooks.secretKeys[0]?.equals(DEVELOPMENT_WEBHOOK_SECRET_KEY)).toBe(true);
    const configured = loadConfig({
      NODE_ENV: "production",
      WEBHOOK_SECRET_KEY: key.toString("base64"),
      WEBHOOK_SECRET_KEY_PREVIOUS: oldKey.toString("hex"),
    });
    expect(configured.webhooks.secretKeys).toEqual([key, oldKey]);
    expect(usesDevelopmentKey(configured.webhooks)).toBe(false);
  });
});
