import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  id: string;
  body: unknown;
  /** Whether the `standardwebhooks` library verified the signature with the receiver's secret. */
  verified: boolean;
  headers: IncomingHttpHeaders;
}

/** What the receiver does with the next request: answer with a status, or never answer. */
export type ReceiverBehaviour = number | "hang";

/**
 * A real HTTP receiver on localhost that verifies every request with the
 * `standardwebhooks` library, as an integrator's would.
 */
export async function startWebhookReceiver(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  setSecret(secret: string): void;
  /** Answers for the next requests, in order; afterwards 200. */
  plan(...behaviours: ReceiverBehaviour[]): void;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let secret = "";
  const planned: ReceiverBehaviour[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        new Webhook(secret).verify(text, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({
        id: String(request.headers["webhook-id"]),
        body: JSON.parse(text),
        verified,
        headers: request.headers,
      });
      const behaviour = planned.shift() ?? 200;
      if (behaviour === "hang") return;
      response.writeHead(behaviour, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setSecret: (value) => {
      secret = value;
    },
    plan: (...behaviours) => planned.push(...behaviours),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
