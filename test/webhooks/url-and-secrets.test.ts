// The SSRF rules for webhook URLs and the encryption of signing secrets at rest.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_WEBHOOK_SECRET_KEY, loadConfig } from "../../src/config.js";
import {
  decryptSecret,
  encryptSecret,
  generateSigningSecret,
  SecretKeyMissingError,
} from "../../src/domain/webhook-secrets.js";
import { checkWebhookUrl, urlProblem } from "../../src/domain/webhook-url.js";
import { signatureHeaders } from "../../src/webhooks/send.js";

const strict = { allowHttp: false, allowPrivateNetworks: false };

describe("webhook URLs", () => {
  it.each([
    ["http://93.184.215.14/hook", "must be an https URL"],
    ["ftp://93.184.215.14/hook", "must be an https URL"],
    ["not a url", "absolute URL"],
    ["https://user:pw@93.184.215.14/", "user name or password"],
  ])("refuses %s", (url, message) => {
    expect(urlProblem(url, strict)).toContain(message);
  });

  it.each([
    ["https://127.0.0.1/", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://localhost:8443/", "loopback"],
    ["https://api.localhost/", "loopback"],
    ["https://10.1.2.3/", "private"],
    ["https://172.16.0.1/", "private"],
    ["https://192.168.1.1/", "private"],
    ["https://169.254.169.254/latest/meta-data", "linkLocal"],
    ["https://100.64.0.1/", "carrierGradeNat"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://[::1]/", "loopback"],
    ["https://[fd00:ec2::254]/", "uniqueLocal"],
    ["https://[fe80::1]/", "linkLocal"],
    ["https://[::ffff:127.0.0.1]/", "loopback"],
    ["https://[::ffff:10.0.0.1]/", "private"],
  ])("refuses the non-public address of %s (%s)", (url, range) => {
    expect(urlProblem(url, strict)).toContain(range);
  });

  it("accepts a public https address, and private or http ones only when configuration allows", () => {
    expect(urlProblem("https://93.184.215.14/hooks", strict)).toBeNull();
    expect(urlProblem("http://127.0.0.1:9/", { allowHttp: true, allowPrivateNetworks: true })).toBeNull();
    expect(urlProblem("http://127.0.0.1:9/", { allowHttp: true, allowPrivateNetworks: false })).toContain(
      "loopback",
    );
  });

  it("refuses a host name that resolves to a private address, checking every address", async () => {
    const resolve = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    expect(await checkWebhookUrl("https://hooks.example.test/x", strict, resolve)).toContain("10.0.0.7");
    const unresolvable = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await checkWebhookUrl("https://nowhere.example.test/x", strict, unresolvable)).toContain(
      "resolves",
    );
  });
});

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
    expect(development.webhooks.usingDevelopmentKey).toBe(true);
    expect(development.webhooks.secretKeys[0]?.equals(DEVELOPMENT_WEBHOOK_SECRET_KEY)).toBe(true);
    const configured = loadConfig({
      NODE_ENV: "production",
      WEBHOOK_SECRET_KEY: key.toString("base64"),
      WEBHOOK_SECRET_KEY_PREVIOUS: oldKey.toString("hex"),
    });
    expect(configured.webhooks.secretKeys).toEqual([key, oldKey]);
    expect(configured.webhooks.usingDevelopmentKey).toBe(false);
  });
});
