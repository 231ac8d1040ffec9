// One HTTP attempt of one delivery, signed under the Standard Webhooks
// specification with the `standardwebhooks` library.
import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import type { AttemptOutcome } from "../domain/webhook-queue.js";
import { guardedLookup, urlProblem, type WebhookUrlPolicy } from "../domain/webhook-url.js";

export interface SignedMessage {
  /** `webhook-id`: the event's id, the same on every attempt, so receivers can drop duplicates. */
  id: string;
  body: string;
  /** Every secret that signs: the current one, and the previous one for a day after a rotation. */
  secrets: readonly string[];
}

/** Receivers may answer with a body; we read at most this much of it. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The Standard Webhooks headers: one `v1,<signature>` per secret, space-separated. */
export function signatureHeaders(message: SignedMessage, at: Date): Record<string, string> {
  const signatures = message.secrets.map((secret) => new Webhook(secret).sign(message.id, at, message.body));
  return {
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/**
 * POSTs the message to `url`: success is a 2xx within `timeoutMs`; a redirect
 * is not followed (it counts as a failure), and an address the policy refuses
 * is never connected to.
 */
export async function sendWebhook(
  url: string,
  message: SignedMessage,
  options: { timeoutMs: number; policy: WebhookUrlPolicy; userAgent: string },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const refused = urlProblem(url, options.policy);
  if (refused) return { statusCode: null, error: `refused: the URL ${refused}`, durationMs: 0 };
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  const headers = {
    ...signatureHeaders(message, new Date()),
    "content-type": "application/json",
    "user-agent": options.userAgent,
    "content-length": String(Buffer.byteLength(message.body)),
  };
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, error, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      { method: "POST", headers, lookup: guardedLookup(options.policy), agent: false },
      (response) => {
        // The status decides; the body is read and dropped, so the connection closes cleanly.
        const statusCode = response.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish(statusCode, ok ? null : `HTTP ${statusCode}`);
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("error", () => {});
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no answer within ${options.timeoutMs} ms`);
      request.destroy();
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EWEBHOOKREFUSEDADDRESS" ? `refused: ${error.message}` : (error.code ?? error.message);
      finish(null, reason);
    });
    request.end(message.body);
  });
}
