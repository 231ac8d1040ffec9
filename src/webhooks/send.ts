// One HTTP attempt of one delivery, signed under the Standard Webhooks
// specification with the `standardwebhooks` library.
import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { urlProblem, type WebhookUrlPolicy } from "../domain/webhook-url.js";
import type { AttemptOutcome } from "../services/webhook-attempt-record.js";
import { guardedLookup } from "../services/webhook-url-check.js";

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

export interface WebhookSender {
  /**
   * POSTs the message to `url`: success is a 2xx within `timeoutMs`; a
   * redirect is not followed (it counts as a failure), and an address the
   * policy refuses is never connected to. Resolves once the connection is
   * done with: the answer's body read to its end (at most
   * MAX_RESPONSE_BYTES), or the time up and the connection destroyed.
   */
  send(url: string, message: SignedMessage): Promise<AttemptOutcome>;
  /** Closes every connection; call once no attempt is in flight. */
  close(): void;
}

/** A kept connection unused this long is closed: shorter than common servers' keep-alive timeouts (5 s). */
const IDLE_CONNECTION_MS = 4_000;

interface SenderOptions {
  timeoutMs: number;
  policy: WebhookUrlPolicy;
  userAgent: string;
  /** Connections kept open per origin between attempts. */
  idleConnectionsPerOrigin: number;
}

/** What every attempt of one sender shares: its options, its connection pools and its guarded lookup. */
interface SenderConnections {
  options: SenderOptions;
  agents: { http: http.Agent; https: https.Agent };
  lookup: ReturnType<typeof guardedLookup>;
}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  // One pool of connections per origin (host and port) inside each agent: a connection whose
  // answer was read to its end serves the next attempt to that origin; any other is destroyed.
  const agentOptions = {
    keepAlive: true,
    timeout: IDLE_CONNECTION_MS,
    maxFreeSockets: options.idleConnectionsPerOrigin,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const connections: SenderConnections = { options, agents, lookup: guardedLookup(options.policy) };

  return {
    send: (url, message) => postSignedMessage(connections, url, message),
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** One attempt: WebhookSender.send. */
async function postSignedMessage(
  { options, agents, lookup }: SenderConnections,
  url: string,
  message: SignedMessage,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const refused = urlProblem(url, options.policy);
  if (refused) return { statusCode: null, error: `refused: the URL ${refused}`, durationMs: 0 };
  const target = new URL(url);
  const [client, agent] = target.protocol === "https:" ? [https, agents.https] : [http, agents.http];
  const headers = {
    ...signatureHeaders(message, new Date()),
    "content-type": "application/json",
    "user-agent": options.userAgent,
    "content-length": String(Buffer.byteLength(message.body)),
  };
  return new Promise<AttemptOutcome>((resolve) => {
    // The outcome is known at the status line; the attempt ends when the connection is done with.
    let outcome: AttemptOutcome | null = null;
    const decide = (statusCode: number | null, error: string | null) => {
      outcome ??= { statusCode, error, durationMs: elapsed() };
    };
    let ended = false;
    const end = () => {
      ended = true;
      clearTimeout(timer);
      resolve(outcome ?? { statusCode: null, error: "the connection closed", durationMs: elapsed() });
    };
    const request = client.request(target, { method: "POST", headers, lookup, agent }, (response) => {
      const statusCode = response.statusCode ?? null;
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      decide(statusCode, ok ? null : `HTTP ${statusCode}`);
      // The body is read and dropped; one too long is cut short with its connection.
      let received = 0;
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) request.destroy();
      });
      response.on("end", end);
      response.on("error", () => {});
    });
    // Decided after the input already waiting, so an answer that came while the process was busy counts.
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (ended) return;
          decide(null, `no answer within ${options.timeoutMs} ms`);
          request.destroy();
        }),
      options.timeoutMs,
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EWEBHOOKREFUSEDADDRESS" ? `refused: ${error.message}` : (error.code ?? error.message);
      decide(null, reason);
    });
    request.on("close", end);
    request.end(message.body);
  });
}
