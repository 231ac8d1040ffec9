// The webhook benchmark's receiver, in its own process as an integrator's
// would be: it verifies every delivery with the `standardwebhooks` library
// and counts what arrived. `POST /_mode` switches what it answers (ok, 503,
// or no answer at all); `GET /_stats` reports (`?since=<ms>`: the lag of the
// events first received from then on).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

type Mode = "ok" | "503" | "hang";

let webhook: Webhook | null = null;
let mode: Mode = "ok";
let requests = 0;
let badSignatures = 0;
const firstSeen = new Map<string, number>();
/** Each event's first receipt: when, and how long after its `created_at`. */
const receipts: { at: number; lagMs: number }[] = [];
let firstAt = 0;
let lastAt = 0;
const hanging = new Set<ServerResponse>();

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    if (request.url === "/_secret") {
      webhook = new Webhook(body);
      response.end("ok");
      return;
    }
    if (request.url === "/_mode") {
      mode = body as Mode;
      for (const held of hanging) held.destroy();
      hanging.clear();
      response.end("ok");
      return;
    }
    if (request.url?.startsWith("/_stats")) {
      const since = Number(new URL(request.url, "http://receiver").searchParams.get("since") ?? 0);
      const sorted = receipts
        .filter((receipt) => receipt.at >= since)
        .map((receipt) => receipt.lagMs)
        .sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          requests,
          unique: firstSeen.size,
          badSignatures,
          lagP50Ms: at(0.5),
          lagP99Ms: at(0.99),
          lagged: sorted.length,
          firstAt,
          lastAt,
          ids: [...firstSeen.keys()],
        }),
      );
      return;
    }
    requests += 1;
    if (mode === "503") {
      response.writeHead(503).end();
      return;
    }
    if (mode === "hang") {
      hanging.add(response);
      return;
    }
    let event: { id: string; created_at: string };
    try {
      event = webhook?.verify(body, request.headers as Record<string, string>) as typeof event;
    } catch {
      badSignatures += 1;
      response.writeHead(400).end();
      return;
    }
    const now = Date.now();
    if (!firstSeen.has(event.id)) {
      firstSeen.set(event.id, now);
      receipts.push({ at: now, lagMs: now - Date.parse(event.created_at) });
      if (firstAt === 0) firstAt = now;
      lastAt = now;
    }
    response.writeHead(204).end();
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`receiver on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => process.exit(0));
