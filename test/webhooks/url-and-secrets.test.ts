// The SSRF rules for webhook URLs and the encryption of signing secrets at rest.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_WEBHOOK_SECRET_KEY, loadConfig, usesDevelopmentKey } from "../../src/config.js";
import {
  decryptSecret,
  encryptSecret,
  generateSigningSecret,
  SecretKeyMissingError,
} from "../../src/domain/webhook-secrets.js";
import { urlProblem } from "../../src/domain/webhook-url.js";
import { checkWebhookUrl, guardedLookup } from "../../src/services/webhook-url-check.js";
import { signatureHeaders } from "../../src/webhooks/send.js";
import { graphql } from "../graphql/helpers.js";
import { expectProblem } from "../rest/helpers.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

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
    // IPv4-compatible (::a.b.c.d, deprecated), SIIT (::ffff:0:a.b.c.d), NAT64 and 6to4 forms carrying a private address.
    ["https://[::127.0.0.1]/", "loopback"],
    ["https://[::10.0.0.1]/", "private"],
    ["https://[::169.254.169.254]/", "linkLocal"],
    ["https://[::ffff:0:127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::192.168.0.1]/", "private"],
    ["https://[2002:7f00:1::1]/", "loopback"],
    ["https://[2002:a9fe:a9fe::]/", "linkLocal"],
  ])("refuses the non-public address of %s (%s)", (url, range) => {
    expect(urlProblem(url, strict)).toContain(` is ${range})`);
  });

  it.each([
    ["https://[::93.184.215.14]/", "ipv4Compatible"],
    ["https://[64:ff9b::93.184.215.14]/", "rfc6052"],
    ["https://[2002:5db8:d70e::1]/", "6to4"],
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "teredo"],
  ])("refuses %s, a translated form even of a public IPv4 address (%s)", (url, range) => {
    expect(urlProblem(url, strict)).toContain(` is ${range})`);
  });

  it("at delivery, refuses a host that resolves to an address carrying a private IPv4 address", async () => {
    // The lookup every delivery connects through; an IP literal resolves to itself.
    const lookupError = (host: string) =>
      new Promise<Error | null>((resolve) => guardedLookup(strict)(host, {}, (error) => resolve(error)));
    expect((await lookupError("::127.0.0.1"))?.message).toContain("(loopback)");
    expect((await lookupError("64:ff9b::a00:1"))?.message).toContain("(private)");
    expect(await lookupError("93.184.215.14")).toBeNull();
  });

  it("refuses control characters, which PostgreSQL or the URL parser would not keep as sent", () => {
    for (const url of [
      "https://93.184.215.14/a\u0000b",
      "https://93.184.215.14/\u0000",
      "https://93.184.215.14/a\u0007",
    ]) {
      expect(urlProblem(url, strict)).toContain("control character");
    }
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

describe("a webhook URL with a NUL character", { timeout: 60_000 }, () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    test = await createTestApp();
    buyer = await seedBuyer(test.database, "NUL sender");
  }, 120_000);
  afterAll(() => test?.close());

  const withNul = "https://93.184.215.14/hooks\u0000x";

  it("is 422 naming url over REST, on create and on change, and changes nothing", async () => {
    const api = (method: string, path: string, body: unknown) =>
      callApi(test.app, method, path, { key: buyer.apiKey, body });
    expectProblem(
      await api("POST", "/webhook_endpoints", { url: withNul, enabled_events: ["*"] }),
      422,
      "validation_failed",
      [["url", "invalid"]],
    );
    const created = await api("POST", "/webhook_endpoints", {
      url: "https://93.184.215.14/hooks",
      enabled_events: ["*"],
    });
    const { id } = created.body as { id: string };
    expectProblem(
      await api("PATCH", `/webhook_endpoints/${id}`, { url: withNul }),
      422,
      "validation_failed",
      [["url", "invalid"]],
    );
    const endpoints = await test.database.prisma.webhookEndpoint.findMany({
      where: { buyerId: buyer.buyerId },
    });
    expect(endpoints.map((endpoint) => endpoint.url)).toEqual(["https://93.184.215.14/hooks"]);
  });

  it("is VALIDATION_FAILED naming input.url over GraphQL", async () => {
    const refused = await graphql(
      test.app,
      "mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }",
      { key: buyer.apiKey, variables: { input: { url: withNul, enabledEvents: ["*"] } } },
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["input", "url"] }],
    });
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
