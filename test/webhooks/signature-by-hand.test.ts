// docs/reference/webhooks.md gives the signature algorithm in prose for receivers in any
// language. A real delivery, sent over a socket by the sender the worker
// delivers with, is verified here with node:crypto alone, following that
// paragraph step by step, and a tampered copy fails.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_CONFIG } from "../../src/config.js";
import { generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { createWebhookSender, type WebhookSender } from "../../src/webhooks/send.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

const TOLERANCE_SECONDS = 5 * 60;

/** The paragraph of docs/reference/webhooks.md, step by step. */
function verifiedByHand(
  secret: string,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
  nowSeconds: number,
): boolean {
  // The secret after its `whsec_` prefix, base64-decoded: the HMAC key.
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const id = String(headers["webhook-id"]);
  const timestamp = String(headers["webhook-timestamp"]);
  // Within 5 minutes either side of this clock.
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  // `<webhook-id>.<webhook-timestamp>.<body>`, the body's bytes as received.
  const signedContent = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]);
  const expected = Buffer.from(createHmac("sha256", key).update(signedContent).digest("base64"));
  // Any `v1,<base64>` entry of the space-separated list, compared in constant time.
  return String(headers["webhook-signature"])
    .split(" ")
    .some((entry) => {
      const [version, signature = ""] = entry.split(",");
      const given = Buffer.from(signature);
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

describe("a delivery verified without the library, as docs/reference/webhooks.md describes", {
  timeout: 30_000,
}, () => {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let sender: WebhookSender;
  const secret = generateSigningSecret();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.setSecret(secret);
    sender = createWebhookSender({
      timeoutMs: DEFAULT_WEBHOOK_CONFIG.deliveryTimeoutMs,
      policy: { allowHttp: true, allowPrivateNetworks: true },
      userAgent: "signature-by-hand",
      idleConnectionsPerOrigin: 1,
    });
  });
  afterAll(async () => {
    sender?.close();
    await receiver?.close();
  });

  it("checks a real delivery's signature with node:crypto alone, and refuses a changed body or an old timestamp", async () => {
    const eventId = randomUUID();
    const sent = await sender.send(receiver.url, {
      id: eventId,
      body: JSON.stringify({
        id: eventId,
        type: "order.updated",
        data: { object: { id: randomUUID(), note: "déjà vu ✓" }, previous_attributes: {} },
      }),
      secrets: [secret],
    });
    expect(sent).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    if (!delivery) throw new Error("no delivery");
    const body = Buffer.from(delivery.text, "utf8");
    const timestamp = Number(delivery.headers["webhook-timestamp"]);

    expect(delivery.id).toBe(eventId);
    expect(delivery.verified).toBe(true);
    expect(verifiedByHand(secret, delivery.headers, body, timestamp)).toBe(true);
    expect(verifiedByHand(secret, delivery.headers, Buffer.from(`${delivery.text} `), timestamp)).toBe(false);
    expect(verifiedByHand(generateSigningSecret(), delivery.headers, body, timestamp)).toBe(false);
    expect(verifiedByHand(secret, delivery.headers, body, timestamp + TOLERANCE_SECONDS + 1)).toBe(false);
  });

  it("is the paragraph docs/reference/webhooks.md gives", () => {
    const docs = readFileSync("docs/reference/webhooks.md", "utf8").replaceAll("\n", " ");
    for (const step of [
      "take the secret after its `whsec_` prefix and base64-decode it",
      "`<webhook-id>.<webhook-timestamp>.<body>`",
      "HMAC-SHA256",
      "`v1,<base64>`",
      "more than 5 minutes before or after your clock",
    ]) {
      expect(docs).toContain(step);
    }
  });
});
