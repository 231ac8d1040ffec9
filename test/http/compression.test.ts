// Response compression (docs/design/decisions.md, "Compression"): brotli or gzip as Accept-Encoding asks,
// a tag per coding, 304s for any coding's tag, the response cache keeping coded pages; and, whatever the
// order of requests, every answer from the response cache is in a coding its own request accepts and
// decodes to the page as it is now, a 304 only confirming a page the client holds. One app for both.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { API, createTestApp, type TestApp, testConfig } from "../support/test-app.js";

const SITE = "http://localhost";
const PAGE = "/orders?limit=40";
const CODED_TAG = /^"\d+-[0-9a-f]{16}-(br|gz)"$/;
const PLAIN_TAG = /^"\d+-[0-9a-f]{16}"$/;

interface Answer {
  status: number;
  headers: Headers;
  /** The bytes as sent, still coded. */
  bytes: Buffer;
}

function decoded(answer: Answer): string {
  const coding = answer.headers.get("content-encoding");
  if (coding === "br") return brotliDecompressSync(answer.bytes).toString("utf8");
  if (coding === "gzip") return gunzipSync(answer.bytes).toString("utf8");
  expect(coding).toBeNull();
  return answer.bytes.toString("utf8");
}

/** A raw HTTP/1.1 exchange: the body as it crossed the socket, nothing decoded. */
function rawGet(origin: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}${path}`, { headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === "string") answerHeaders.set(name, value);
          else for (const each of value ?? []) answerHeaders.append(name, each);
        }
        resolve({ status: incoming.statusCode ?? 0, headers: answerHeaders, bytes: Buffer.concat(chunks) });
      });
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

describe("response compression", () => {
  let buyer: SeededBuyer;
  let orderId: string;
  let server: Server;
  let origin: string;

  async function send(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
    const response = await harness.app.fetch(path.startsWith("http") ? path : `${API}${path}`, {
      method,
      headers: { "x-api-key": buyer.apiKey, ...headers },
    });
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  }
  const cacheMetric = async (name: "hits_total" | "misses_total" | "bytes") => {
    const text = (await send(`${SITE}/metrics`)).bytes.toString();
    return Number(new RegExp(`^http_response_cache_${name} (\\d+)`, "m").exec(text)?.[1]);
  };

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Compression");
    [orderId = ""] = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 40 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)) })),
    );
    server = createServer(harness.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it.each([
    ["br", "br"],
    ["gzip", "gzip"],
  ])("answers a page in %s whose bytes decode to exactly the plain body", async (accept, coding) => {
    const plain = await send(PAGE);
    const coded = await send(PAGE, { "accept-encoding": accept });

    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(coded.headers.get("content-encoding")).toBe(coding);
    expect(coded.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(decoded(coded)).toBe(plain.bytes.toString("utf8"));
  });

  it("says the answer varies on Accept-Encoding, coded or not, and on 304s", async () => {
    const plain = await send(PAGE);
    const coded = await send(PAGE, { "accept-encoding": "br" });
    const notModified = await send(PAGE, {
      "accept-encoding": "br",
      "if-none-match": coded.headers.get("etag") ?? "",
    });

    for (const answer of [plain, coded, notModified]) {
      expect(answer.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    }
  });

  it("tags each coding differently, and answers 304 to If-None-Match with any of the tags, whatever is accepted now", async () => {
    const tags = {
      identity: (await send(PAGE)).headers.get("etag") ?? "",
      br: (await send(PAGE, { "accept-encoding": "br" })).headers.get("etag") ?? "",
      gzip: (await send(PAGE, { "accept-encoding": "gzip" })).headers.get("etag") ?? "",
    };
    expect(tags.identity).toMatch(PLAIN_TAG);
    expect(tags.br).toBe(`${tags.identity.slice(0, -1)}-br"`);
    expect(tags.gzip).toBe(`${tags.identity.slice(0, -1)}-gz"`);

    for (const held of Object.values(tags)) {
      for (const accept of ["br", "gzip", "identity"]) {
        const answer = await send(PAGE, { "accept-encoding": accept, "if-none-match": held });
        expect(answer.status).toBe(304);
        expect(answer.bytes.length).toBe(0);
        expect(answer.headers.get("etag")).toBe(held);
      }
    }
    // A tag of another page, in a coding, still answers 200.
    const other = (await send("/orders?limit=39", { "accept-encoding": "br" })).headers.get("etag") ?? "";
    expect(other).toMatch(CODED_TAG);
    expect((await send(PAGE, { "if-none-match": other })).status).toBe(200);
  });

  it("leaves bodies under 1 KiB as they are: small pages, problems, health", async () => {
    const small = await send("/orders?created_at_from=2030-01-01", { "accept-encoding": "br" });
    const problem = await send("/orders/nope", { "accept-encoding": "br" });
    const health = await send(`${SITE}/healthz`, { "accept-encoding": "br" });

    for (const answer of [small, problem, health]) {
      expect(answer.bytes.length).toBeLessThan(1024);
      expect(answer.headers.get("content-encoding")).toBeNull();
    }
    expect(small.headers.get("etag")).toMatch(PLAIN_TAG);
    expect(problem.headers.get("content-type")).toBe("application/problem+json");
  });

  it("codes the OpenAPI document, the reference page's bundle, GraphQL answers and GraphiQL", async () => {
    const answers = [
      await send(`${API}/openapi.json`, { "accept-encoding": "br" }),
      await send(
        `${SITE}${/<script src="([^"]+)"/.exec((await send(`${SITE}/docs`)).bytes.toString())?.[1]}`,
        {
          "accept-encoding": "gzip",
        },
      ),
      await send(`${SITE}/graphql`, {
        "accept-encoding": "br",
        accept: "text/html",
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-encoding")).not.toBeNull();
      expect(decoded(answer).length).toBeGreaterThan(answer.bytes.length);
    }
    const query = `{ orders(first: 40) { nodes { id orderReference createdAt supplier { name } } } }`;
    const graphqlAnswer = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "x-api-key": buyer.apiKey, "content-type": "application/json", "accept-encoding": "br" },
      body: JSON.stringify({ query }),
    });
    const bytes = Buffer.from(await graphqlAnswer.arrayBuffer());
    expect(graphqlAnswer.headers.get("content-encoding")).toBe("br");
    expect(JSON.parse(brotliDecompressSync(bytes).toString()).data.orders.nodes).toHaveLength(40);
  });

  it("never codes an event stream", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: {
        "x-api-key": buyer.apiKey,
        "content-type": "application/json",
        accept: "text/event-stream",
        "accept-encoding": "br, gzip",
      },
      body: JSON.stringify({ query: "subscription { orderUpdated { order { orderStatus } } }" }),
    });
    await response.body
      ?.getReader()
      .cancel()
      .catch(() => {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    // Yoga's own `none` keeps proxies from coding it too.
    expect(response.headers.get("content-encoding") ?? "none").toBe("none");
  });

  it("answers HEAD with the headers GET answers", async () => {
    const page = "/orders?limit=38";
    const get = await send(page, { "accept-encoding": "br" });
    const head = await send(page, { "accept-encoding": "br" }, "HEAD");

    expect(head.status).toBe(200);
    for (const name of ["content-encoding", "content-type", "etag", "vary", "cache-control"]) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
  });

  it("keeps a page's coded bytes: a hit sends the same bytes, coded once, and costs the cache no more", async () => {
    const page = "/orders?limit=37";
    const bytesBefore = await cacheMetric("bytes");
    const misses = await cacheMetric("misses_total");
    const first = await send(page, { "accept-encoding": "br" });
    const heldAfterFirst = await cacheMetric("bytes");
    const hits = await cacheMetric("hits_total");
    const second = await send(page, { "accept-encoding": "br" });

    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(await cacheMetric("misses_total")).toBe(misses + 1);
    expect(await cacheMetric("hits_total")).toBe(hits + 1);
    // The entry holds the brotli bytes only, not the plain page beside them, and the hit added nothing.
    const plainLength = Buffer.byteLength(decoded(first));
    expect(heldAfterFirst - bytesBefore).toBeLessThan(plainLength / 2);
    expect(await cacheMetric("bytes")).toBe(heldAfterFirst);

    // A plain read of the same page is made from the stored bytes, kept beside them, and is the plain body.
    const plain = await send(page);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.bytes.toString("utf8")).toBe(decoded(first));
    expect(await cacheMetric("misses_total")).toBe(misses + 1);
    expect(await cacheMetric("bytes")).toBeGreaterThanOrEqual(heldAfterFirst + plainLength);
  });

  it("accepts a coded tag as If-Match where the plain tag would be", async () => {
    const path = `/orders/${orderId}`;
    const coded = (await send(path, { "accept-encoding": "gzip" })).headers.get("etag") ?? "";
    expect(coded).toMatch(CODED_TAG);

    const write = await harness.app.fetch(`${API}${path}`, {
      method: "PATCH",
      headers: {
        "x-api-key": buyer.apiKey,
        "content-type": "application/json",
        "if-match": coded,
      },
      body: JSON.stringify({ purchase_order_reference: "PO-coded-tag" }),
    });
    expect(write.status).toBe(200);
    // The same tag names an older version now: refused.
    const again = await harness.app.fetch(`${API}${path}`, {
      method: "PATCH",
      headers: { "x-api-key": buyer.apiKey, "content-type": "application/json", "if-match": coded },
      body: JSON.stringify({ purchase_order_reference: "PO-coded-tag-2" }),
    });
    expect(again.status).toBe(412);
  });

  it("over a socket: Node's fetch reads the coded page as the plain one, and the raw bytes are brotli", async () => {
    const url = `${origin}/api/public/buyer/v1${PAGE}`;
    const viaFetch = await fetch(url, { headers: { "x-api-key": buyer.apiKey, "accept-encoding": "br" } });
    const text = await viaFetch.text();
    const raw = await rawGet(origin, `/api/public/buyer/v1${PAGE}`, {
      "x-api-key": buyer.apiKey,
      "accept-encoding": "br",
    });
    const plain = await rawGet(origin, `/api/public/buyer/v1${PAGE}`, { "x-api-key": buyer.apiKey });

    expect(viaFetch.headers.get("content-encoding")).toBe("br");
    expect(text).toBe(plain.bytes.toString("utf8"));
    expect(raw.headers.get("content-encoding")).toBe("br");
    expect(Number(raw.headers.get("content-length"))).toBe(raw.bytes.length);
    expect(decoded(raw)).toBe(plain.bytes.toString("utf8"));
    expect(Number(plain.headers.get("content-length"))).toBe(plain.bytes.length);
  });

  it("sends everything as it is with COMPRESSION=false", async () => {
    const app: App = createApp({
      config: testConfig({ compression: false }),
      database: harness.database,
      logger: createLogger("silent"),
    });
    const response = await app.fetch(`${API}${PAGE}`, {
      headers: { "x-api-key": buyer.apiKey, "accept-encoding": "br, gzip" },
    });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBeNull();
    expect(response.headers.get("etag")).toMatch(PLAIN_TAG);
    expect(JSON.parse(await response.text())).toHaveLength(40);
    await app.dispose();
  });
});

/** Pages from well under the 1 KiB coding threshold to well over it; the smallest code under 1 KiB too. */
const PAGES = [
  "/orders?limit=1",
  "/orders?limit=2",
  "/orders?limit=3",
  "/orders?limit=5",
  "/orders?limit=12",
  "/orders?limit=30",
  "/orders/{id}",
];

const ACCEPT_ENCODINGS = [
  null,
  "br",
  "gzip",
  "identity",
  "deflate",
  "br;q=0, gzip",
  "gzip;q=0.5, br",
  "br, gzip",
  "gzip, deflate, br",
  "*",
  "*;q=0, identity",
  "identity;q=0, gzip",
  "x-gzip",
  "br;q=0, gzip;q=0",
];

/** Whether `coding` may be sent to a request with this Accept-Encoding (RFC 9110 §12.5.3), written apart from the server's. */
function accepts(acceptEncoding: string | null, coding: "br" | "gzip" | "identity"): boolean {
  if (acceptEncoding === null) return coding === "identity";
  const weights = new Map<string, number>();
  for (const element of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = element.split(";").map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    weights.set(name === "x-gzip" ? "gzip" : name, q ? Number(q.slice(2)) : 1);
  }
  const weight = weights.get(coding) ?? weights.get("*");
  // Identity is acceptable unless refused by name or by a refusing `*` that does not name it.
  if (coding === "identity") return weight === undefined || weight > 0;
  return weight !== undefined && weight > 0;
}

type Step =
  | { kind: "read"; page: number; acceptEncoding: string | null; conditional: boolean }
  | { kind: "write"; order: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      page: fc.nat(PAGES.length - 1),
      acceptEncoding: fc.constantFrom(...ACCEPT_ENCODINGS),
      conditional: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("write" as const), order: fc.nat(29) }) },
);

describe("the response cache across codings", () => {
  /** The same data served with neither cache nor compression: the page as it is. */
  let reference: App;
  let buyer: SeededBuyer;
  let orderIds: string[];
  let writes = 0;

  beforeAll(async () => {
    reference = createApp({
      config: testConfig({ responseCacheMaxBytes: 0, compression: false }),
      database: harness.database,
      logger: createLogger("silent"),
    });
    buyer = await seedBuyer(harness.database, "Codings");
    orderIds = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 30 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)) })),
    );
  }, 120_000);
  afterAll(async () => {
    await reference?.dispose();
  });

  const urlOf = (page: number) => `${API}${(PAGES[page] ?? "").replace("{id}", orderIds[0] ?? "")}`;

  it("answers every request in a coding it accepts, decoding to the current page; a 304 only for a page the client holds", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        // What this client has received: the page each tag stood for.
        const held = new Map<string, string>();
        for (const each of steps) {
          if (each.kind === "write") {
            writes += 1;
            const response = await harness.app.fetch(`${API}/orders/${orderIds[each.order]}`, {
              method: "PATCH",
              headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
              body: JSON.stringify({ supplier_order_reference: `SO-${writes}` }),
            });
            expect(response.status).toBe(200);
            continue;
          }
          const url = urlOf(each.page);
          const headers: Record<string, string> = { "x-api-key": buyer.apiKey };
          if (each.acceptEncoding !== null) headers["accept-encoding"] = each.acceptEncoding;
          if (each.conditional && held.size > 0) headers["if-none-match"] = [...held.keys()].join(", ");
          const response = await harness.app.fetch(url, { headers });
          const current = await (
            await reference.fetch(url, { headers: { "x-api-key": buyer.apiKey } })
          ).text();
          const etag = response.headers.get("etag") ?? "";
          if (response.status === 304) {
            expect(held.get(etag), `304 for ${url} confirms a page the client holds`).toBe(current);
            continue;
          }
          expect(response.status).toBe(200);
          const coding = response.headers.get("content-encoding");
          expect(
            accepts(each.acceptEncoding, (coding ?? "identity") as "br" | "gzip" | "identity"),
            `${url} answered in ${coding ?? "identity"} to Accept-Encoding: ${each.acceptEncoding}`,
          ).toBe(true);
          const body = decoded({
            status: response.status,
            headers: response.headers,
            bytes: Buffer.from(await response.arrayBuffer()),
          });
          expect(body).toBe(current);
          held.set(etag, body);
        }
      }),
      { numRuns: 25, seed: 20261127 },
    );
  }, 240_000);

  it("sends a JSON page to a client accepting both codings in no more bytes than gzip would take", async () => {
    for (let page = 0; page < PAGES.length; page += 1) {
      const size = async (acceptEncoding: string) => {
        const response = await harness.app.fetch(urlOf(page), {
          headers: { "x-api-key": buyer.apiKey, "accept-encoding": acceptEncoding },
        });
        return (await response.arrayBuffer()).byteLength;
      };
      const gzip = await size("gzip");
      expect(await size("gzip, br"), urlOf(page)).toBeLessThanOrEqual(gzip);
    }
  });
});
