// Retries that never duplicate: a proxy in front of the server's socket lets
// every POST reach the server and be committed, then loses the answer: it
// cuts the client's connection, or answers 503 in its place. The client
// retries with the same Idempotency-Key, the server replays, and the
// database holds exactly one record per call.
import { Agent, createServer, request as forward, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuyerApi } from "../../client/src/index.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { type LiveServer, startLiveServer } from "./live-server.js";

/**
 * Faults per run: enough for every lane to meet both kinds many times over;
 * the long run (TEST_PROCESSES=1, which CI sets) injects a thousand.
 */
const FAULTS = process.env.TEST_PROCESSES === "1" ? 1_000 : 100;

interface FaultProxy {
  origin: string;
  /** Answers lost after the server had answered, by how they were lost. */
  faults: { dropped: number; replaced: number };
  close(): Promise<void>;
}

/**
 * Forwards each request to `upstream`, and loses the answer of the first
 * request with each Idempotency-Key (of every other request without one).
 */
async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const agent = new Agent({ keepAlive: true });
  const target = new URL(upstream);
  // Which answer is lost is decided when it arrives, not when its request did: a request whose
  // forwarding failed (a reset under load), or one its client gave up on, leaves the fault to
  // its retry, so exactly one answer per key is lost whatever the timing.
  const faultedKeys = new Set<string>();
  const faults = { dropped: 0, replaced: 0 };
  let unkeyed = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const key = request.headers["idempotency-key"];
      const unkeyedFault = typeof key !== "string" && unkeyed++ % 2 === 0;
      const upstreamRequest = forward(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
          agent,
        },
        (answer: IncomingMessage) => {
          const body: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => body.push(chunk));
          answer.on("end", () => {
            // The server has answered, so its work is committed: lose the answer on the way back.
            const fault = typeof key === "string" ? !faultedKeys.has(key) : unkeyedFault;
            if (fault && typeof key === "string") faultedKeys.add(key);
            if (fault && (faults.dropped + faults.replaced) % 2 === 0) {
              faults.dropped += 1;
              request.socket.destroy();
            } else if (fault) {
              faults.replaced += 1;
              response
                .writeHead(503, { "content-type": "application/problem+json", "retry-after": "0" })
                .end(
                  JSON.stringify({ status: 503, code: "overloaded", detail: "the proxy lost the answer" }),
                );
            } else {
              response.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
            }
          });
        },
      );
      upstreamRequest.on("error", () => request.socket.destroy());
      upstreamRequest.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a POST whose answer is lost after the server committed it", { timeout: 300_000 }, () => {
  let live: LiveServer;
  let proxy: FaultProxy;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    live = await startLiveServer({ webhooks: { allowHttp: true, allowPrivateNetworks: true } });
    proxy = await startFaultProxy(live.origin);
    buyer = await seedBuyer(live.database, "Faults");
  });
  afterAll(async () => {
    await proxy?.close();
    await live?.close();
  });

  it(`is retried with the same key and replayed: ${FAULTS} faults, no duplicate record`, async () => {
    const api = new BuyerApi({ baseUrl: proxy.origin, apiKey: buyer.apiKey, retry: { baseDelayMs: 1 } });
    const created: string[] = [];
    // A webhook endpoint is a record nothing else makes unique: a second create is a second row.
    const create = async (index: number) => {
      const endpoint = await api.webhookEndpoints.create({
        body: { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"], description: `Fault ${index}` },
      });
      created.push(endpoint.id);
    };
    // A few calls at a time, as an integration sending a batch would.
    const lanes = 4;
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let index = lane; index < FAULTS; index += lanes) await create(index);
      }),
    );
    expect(proxy.faults.dropped + proxy.faults.replaced).toBe(FAULTS);
    expect(proxy.faults.dropped).toBe(FAULTS / 2);
    expect(new Set(created).size).toBe(FAULTS);
    const records = await live.database.prisma.webhookEndpoint.findMany({
      where: { buyerId: buyer.buyerId },
      select: { id: true, description: true },
    });
    expect(records).toHaveLength(FAULTS);
    expect(new Set(records.map((record) => record.description)).size).toBe(FAULTS);
    expect(new Set(records.map((record) => record.id))).toEqual(new Set(created));
  });
});
