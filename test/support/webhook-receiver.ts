import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  id: string;
  body: unknown;
  /** The body as it arrived, before parsing. */
  text: string;
  /** Whether the `standardwebhooks` library verified the signature with the receiver's secret. */
  verified: boolean;
  headers: IncomingHttpHeaders;
}

/**
 * What the receiver does with a request: answer with a status; never answer
 * ("hang"); or answer 200 and start a body it never finishes ("unfinished body").
 */
export type ReceiverBehaviour = number | "hang" | "unfinished body";

/**
 * A real HTTP receiver on localhost that verifies every request with the
 * `standardwebhooks` library, as an integrator's would.
 */
export async function startWebhookReceiver(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  setSecret(secret: string): void;
  /** Answers for the next requests, in order; afterwards the usual answer (200 unless set). */
  plan(...behaviours: ReceiverBehaviour[]): void;
  /** The answer to every request no plan covers. */
  answerAlways(behaviour: ReceiverBehaviour): void;
  /** TCP connections the receiver has accepted so far. */
  connectionsAccepted(): number;
  /** TCP connections open now. */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let secret = "";
  const planned: ReceiverBehaviour[] = [];
  let usual: ReceiverBehaviour = 200;
  let accepted = 0;
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
        text,
        verified,
        headers: request.headers,
      });
      const behaviour = planned.shift() ?? usual;
      if (behaviour === "hang") return;
      if (behaviour === "unfinished body") {
        response.writeHead(200, { "content-type": "text/plain" }).write("still writing");
        return;
      }
      response.writeHead(behaviour, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.on("connection", () => {
    accepted += 1;
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
    answerAlways: (behaviour) => {
      usual = behaviour;
    },
    connectionsAccepted: () => accepted,
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
