import type { WebhookEvent } from "./types.js";

/** A delivery that is not the API's: bad or missing signature, a timestamp outside the tolerance, or no event. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** How far the delivery's `webhook-timestamp` may be from now, either way: 300 s, as Standard Webhooks says. */
  toleranceSeconds?: number;
  /** Now, in Unix seconds. */
  now?: number;
}

/** A `Headers`, or node:http's `request.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(entry) ? entry[0] : entry;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Verifies a webhook delivery under Standard Webhooks (HMAC-SHA256 of
 * `id.timestamp.body`, `v1,` signatures, a tolerance window) with WebCrypto,
 * and returns its event, discriminated by `type`. `body` is the raw body, as
 * received, before any parsing; `secret` is the endpoint's `whsec_…` secret
 * (or several, while a rotated one still signs). Throws WebhookVerificationError.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook headers");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("invalid webhook-timestamp");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("webhook-timestamp outside the tolerance window");
  }
  const encoder = new TextEncoder();
  const bodyBytes = typeof body === "string" ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);
  const candidates = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => entry.slice(3));
  for (const text of typeof secret === "string" ? [secret] : secret) {
    let key: CryptoKey;
    try {
      const raw = fromBase64(text.startsWith("whsec_") ? text.slice("whsec_".length) : text);
      key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    } catch {
      throw new WebhookVerificationError("the secret is not a whsec_ base64 secret");
    }
    for (const candidate of candidates) {
      let signature: Uint8Array<ArrayBuffer>;
      try {
        signature = fromBase64(candidate);
      } catch {
        continue;
      }
      // subtle.verify compares in constant time.
      if (await crypto.subtle.verify("HMAC", key, signature, signed)) return parseEvent(bodyBytes);
    }
  }
  throw new WebhookVerificationError("no signature matches");
}

function parseEvent(body: Uint8Array): WebhookEvent {
  const event: unknown = JSON.parse(new TextDecoder().decode(body));
  if (typeof event !== "object" || event === null || !("type" in event) || !("id" in event)) {
    throw new WebhookVerificationError("the body is not an event");
  }
  return event as WebhookEvent;
}
