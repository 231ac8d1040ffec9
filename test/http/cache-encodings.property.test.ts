// Whatever the order of requests, every answer from the response cache is in a coding its own
// request accepts and decodes to the page as it is now; a 304 only confirms a page the client holds.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { API, createTestApp, type TestApp, testConfig } from "../support/test-app.js";

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

function decode(coding: string | null, bytes: Buffer): string {
  if (coding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (coding === "gzip") return gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
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
  let harness: TestApp;
  /** The same data served with neither cache nor compression: the page as it is. */
  let reference: App;
  let buyer: SeededBuyer;
  let orderIds: string[];
  let writes = 0;

  beforeAll(async () => {
    harness = await createTestApp();
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
    await harness?.close();
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
          const body = decode(coding, Buffer.from(await response.arrayBuffer()));
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
