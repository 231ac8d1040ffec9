// The stages that admit the API's requests, each with the real admission
// statement on a real database: the failed-authentication limit, admission
// itself, conditional GETs, the rate limit and the response cache. On
// PostgreSQL the statement is a named one, parsed and planned once per
// connection (docs/design/performance.md, "What performance rests on");
// DATABASE_NAMED_STATEMENTS=false sends it unnamed, for PgBouncer before 1.21
// in transaction mode (docs/reference/operations.md, "PgBouncer").
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmission, createAuthFailureLimit, type Gate } from "../../../src/http/admission.js";
import { createCompression } from "../../../src/http/compression.js";
import { type ConditionalGets, createConditionalGets } from "../../../src/http/conditional-get.js";
import { createMetrics } from "../../../src/http/metrics.js";
import { createResponseCache } from "../../../src/http/response-cache.js";
import { admission } from "../../../src/http/stages/admission.js";
import { conditionalGet } from "../../../src/http/stages/conditional-get.js";
import { compose } from "../../../src/http/stages/exchange.js";
import { failedAuthLimit } from "../../../src/http/stages/failed-auth-limit.js";
import { observe } from "../../../src/http/stages/observe.js";
import { rateLimit } from "../../../src/http/stages/rate-limit.js";
import { responseCache } from "../../../src/http/stages/response-cache.js";
import { withinOneWindow } from "../../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer } from "../../support/seed.js";
import { callApi, createTestApp } from "../../support/test-app.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../support/test-database.js";
import { exchangeFor, stubNext } from "./exchange.js";

const unexpected = (error: unknown) => {
  throw error;
};

/** A database of its own whose statements are recorded in `sent`, with one buyer and a gate of 100 a minute. */
async function withRecordedStatements(
  name: string,
  run: (setup: {
    sent: string[];
    database: TestDatabase;
    buyer: SeededBuyer;
    gateOf100: Gate;
  }) => Promise<void>,
): Promise<void> {
  const sent: string[] = [];
  const recorded = await createTestDatabase({ onQuery: (sql) => sent.push(sql) });
  try {
    const buyer = await seedBuyer(recorded, name);
    await run({ sent, database: recorded, buyer, gateOf100: createAdmission(recorded, 100, unexpected) });
  } finally {
    await recorded.close();
  }
}

describe("the admission stages", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let gate: Gate;
  let conditionalGets: ConditionalGets;
  const metrics = createMetrics();
  const sample = async (name: string) =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Stages");
    gate = createAdmission(database, 5, unexpected);
    conditionalGets = createConditionalGets({
      salt: "stages",
      cache: createResponseCache(1024 * 1024),
      counters: metrics.conditionalGets,
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  const withKey = (key: string, headers: Record<string, string> = {}) => ({
    headers: { "x-api-key": key, ...headers },
  });

  describe("admission", () => {
    it("names the caller and says where it stands on every answer", async () => {
      const stage = admission({ gate, conditionalGets });
      const exchange = exchangeFor("/api/other", withKey(buyer.apiKey));
      const response = await stage(exchange, stubNext());
      expect(exchange.admission?.viewer).toEqual({ buyerId: buyer.buyerId, apiKeyId: buyer.apiKeyId });
      expect(response.headers.get("ratelimit-limit")).toBe("5");
      expect(Number(response.headers.get("ratelimit-remaining"))).toBeLessThan(5);
    });

    it("leaves a wrong key or none unadmitted, for the endpoint to refuse, without rate-limit headers", async () => {
      const stage = admission({ gate, conditionalGets });
      for (const init of [withKey("bpk_not_a_real_key_000000000000000000"), {}]) {
        const exchange = exchangeFor("/api/other", init);
        const next = stubNext();
        const response = await stage(exchange, next);
        expect(next.calls).toHaveLength(1);
        expect(exchange.admission).toBeNull();
        expect(response.headers.get("ratelimit-limit")).toBeNull();
      }
    });

    it("names the admitted buyer in the request's log line", async () => {
      const lines: { buyerId?: string | null }[] = [];
      const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const observed = compose(
        [observe({ metrics, logger }), admission({ gate, conditionalGets })],
        stubNext(),
      );
      await observed(exchangeFor("/api/other", withKey(buyer.apiKey)));
      await observed(exchangeFor("/api/other"));
      expect(lines.map((line) => line.buyerId)).toEqual([buyer.buyerId, null]);
    });

    it("does not look a key up for a path outside the API", async () => {
      const exchange = exchangeFor("/page", withKey(buyer.apiKey));
      const response = await admission({ gate, conditionalGets })(exchange, stubNext());
      expect(exchange.admission).toBeNull();
      expect(response.headers.get("ratelimit-limit")).toBeNull();
    });

    it("admits requests that arrive together with one statement, counting each once in arrival order", async () => {
      await withRecordedStatements("Together", async ({ sent, buyer: together, gateOf100 }) => {
        await withinOneWindow();
        const first = await gateOf100.admit(together.apiKey);
        const current = first?.version ?? -1n;
        sent.length = 0;
        const admissions = await Promise.all([
          ...Array.from({ length: 10 }, () => gateOf100.admit(together.apiKey)),
          gateOf100.admit("bpk_not_a_real_key_000000000000000000"),
          gateOf100.admit(together.apiKey, [current]),
        ]);
        expect(sent.filter((sql) => /api_keys AS k\b/.test(sql))).toHaveLength(1);
        // Counted 2 to 11 after the first request; the wrong key admitted nobody; the claim was not counted.
        expect(admissions.map((admitted) => admitted?.limit.remaining ?? null)).toEqual([
          98,
          97,
          96,
          95,
          94,
          93,
          92,
          91,
          90,
          89,
          null,
          89,
        ]);
        expect(admissions.map((admitted) => admitted?.counted ?? null)).toEqual([
          ...Array.from({ length: 10 }, () => true),
          null,
          false,
        ]);
      });
    });

    it("stamps a key's last use once for requests admitted together", async () => {
      await withRecordedStatements("Stale", async ({ sent, buyer: stale, gateOf100, database: counting }) => {
        await Promise.all(Array.from({ length: 20 }, () => gateOf100.admit(stale.apiKey)));
        const stamped = () =>
          counting.prisma.apiKey
            .findUniqueOrThrow({ where: { id: stale.apiKeyId } })
            .then((key) => key.lastUsedAt);
        await expect.poll(stamped).not.toBeNull();
        expect(sent.filter((sql) => /UPDATE\s+"public"\."api_keys"/i.test(sql))).toHaveLength(1);
      });
    });

    it("counts each of many requests once when two processes admit the same keys at once", async () => {
      const shared = await createTestDatabase({ poolSize: 4 });
      try {
        const [one, two] = [await seedBuyer(shared, "One"), await seedBuyer(shared, "Two")];
        // Two gates, as two processes have: their statements run side by side, the keys in opposite orders.
        const [first, second] = [
          createAdmission(shared, 1000, unexpected),
          createAdmission(shared, 1000, unexpected),
        ];
        const keys = Array.from({ length: 100 }, (_, index) => (index % 3 === 0 ? one.apiKey : two.apiKey));
        await withinOneWindow();
        const admissions = await Promise.all([
          ...keys.map((key) => first.admit(key)),
          ...[...keys].reverse().map((key) => second.admit(key)),
        ]);
        const countsOf = (key: string) =>
          admissions
            .filter(
              (admitted) => admitted?.viewer.apiKeyId === (key === one.apiKey ? one.apiKeyId : two.apiKeyId),
            )
            .map((admitted) => 1000 - (admitted?.limit.remaining ?? 0))
            .sort((a, b) => a - b);
        for (const key of [one.apiKey, two.apiKey]) {
          const counts = countsOf(key);
          expect(counts).toEqual(Array.from({ length: counts.length }, (_, index) => index + 1));
        }
        expect(countsOf(one.apiKey).length + countsOf(two.apiKey).length).toBe(200);
      } finally {
        await shared.close();
      }
    });
  });

  describe("the rate limit", () => {
    it("refuses a caller past its limit with 429 and Retry-After, before the endpoint", async () => {
      const other = await seedBuyer(database, "Busy");
      const next = stubNext();
      const admitThenLimit = compose([admission({ gate, conditionalGets }), rateLimit], next);
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let index = 0; index < 6; index += 1) {
        last = await admitThenLimit(exchangeFor("/api/other", withKey(other.apiKey)));
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(next.calls).toHaveLength(5);
      expect(await last?.json()).toMatchObject({
        code: "rate_limited",
        detail: expect.stringContaining("More than 5 requests"),
      });
      expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(last?.headers.get("ratelimit-remaining")).toBe("0");
    });
  });

  describe("conditional GETs and the response cache", () => {
    const readAs = async (key: string, headers: Record<string, string> = {}) => {
      const next = stubNext((exchange) => Response.json({ path: exchange.url.pathname }));
      const exchange = exchangeFor("/api/things/t1", withKey(key, headers));
      const stages = compose(
        [
          admission({ gate, conditionalGets }),
          conditionalGet({ gate, conditionalGets }),
          rateLimit,
          responseCache({ conditionalGets, compression: createCompression(false) }),
        ],
        next,
      );
      const response = await stages(exchange);
      return { response, next, exchange };
    };

    it("answers 304 to the current tag without counting it or reaching the endpoint", async () => {
      await withinOneWindow();
      const reader = await seedBuyer(database, "Reader");
      const first = await readAs(reader.apiKey);
      expect(first.response.status).toBe(200);
      expect(first.next.calls).toHaveLength(1);
      const etag = first.response.headers.get("etag") ?? "";
      expect(etag).not.toBe("");
      const remaining = first.response.headers.get("ratelimit-remaining");

      const notModifiedBefore = (await sample("http_not_modified_total")) ?? 0;
      const again = await readAs(reader.apiKey, { "if-none-match": etag });
      expect(again.response.status).toBe(304);
      expect(again.next.calls).toHaveLength(0);
      expect(again.exchange.admission?.counted).toBe(false);
      expect(again.response.headers.get("ratelimit-remaining")).toBe(remaining);
      expect(await sample("http_not_modified_total")).toBe(notModifiedBefore + 1);
    });

    it("counts a tag of the current version that names another URL, and answers from the cache", async () => {
      await withinOneWindow();
      const reader = await seedBuyer(database, "Other URL");
      const first = await readAs(reader.apiKey);
      const version = first.exchange.admission?.version ?? 0n;
      const elsewhere = conditionalGets.entityTag(new URL("https://api.example.test/api/things/t2"), {
        buyerId: reader.buyerId,
        version,
      });
      const hitsBefore = (await sample("http_response_cache_hits_total")) ?? 0;
      const second = await readAs(reader.apiKey, { "if-none-match": elsewhere });
      expect(second.exchange.admission?.counted).toBe(true);
      expect(second.response.status).toBe(200);
      expect(second.next.calls).toHaveLength(0);
      expect(await sample("http_response_cache_hits_total")).toBe(hitsBefore + 1);
      expect(Number(second.response.headers.get("ratelimit-remaining"))).toBe(
        Number(first.response.headers.get("ratelimit-remaining")) - 1,
      );
    });
  });

  describe("the failed-authentication limit", () => {
    const address = "192.0.2.44";
    const unauthorized = () => new Response(null, { status: 401 });

    it("turns 401s past the limit into 429, then refuses the address before the endpoint", async () => {
      const stage = failedAuthLimit({ authFailures: createAuthFailureLimit(database, 2, unexpected), gate });
      const statuses: number[] = [];
      for (let index = 0; index < 3; index += 1)
        statuses.push(
          (await stage(exchangeFor("/api/other", {}, { clientAddress: address }), stubNext(unauthorized)))
            .status,
        );
      expect(statuses).toEqual([401, 401, 429]);

      const next = stubNext();
      const refused = await stage(
        exchangeFor("/api/other", withKey("bpk_guess_0000000000000000000000000"), { clientAddress: address }),
        next,
      );
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        detail: expect.stringContaining("failed authentications"),
      });
      expect(next.calls).toHaveLength(0);
    });

    it("still lets through a key this process admitted lately, and pages outside the API", async () => {
      const stage = failedAuthLimit({ authFailures: createAuthFailureLimit(database, 2, unexpected), gate });
      await gate.admit(buyer.apiKey);
      const next = stubNext();
      const admitted = await stage(
        exchangeFor("/api/other", withKey(buyer.apiKey), { clientAddress: address }),
        next,
      );
      expect(admitted.status).toBe(200);
      const page = await stage(exchangeFor("/page", {}, { clientAddress: address }), next);
      expect(page.status).toBe(200);
      expect(next.calls).toHaveLength(2);
    });

    it("counts nothing for a request that came through no socket", async () => {
      const stage = failedAuthLimit({ authFailures: createAuthFailureLimit(database, 1, unexpected), gate });
      const statuses: number[] = [];
      for (let index = 0; index < 3; index += 1)
        statuses.push((await stage(exchangeFor("/api/other"), stubNext(unauthorized))).status);
      expect(statuses).toEqual([401, 401, 401]);
    });
  });
});

describe.skipIf(!onPostgres)("the admission statement on PostgreSQL", () => {
  for (const namedStatements of [true, false]) {
    it(`is ${namedStatements ? "prepared once on the connection, as 'admission'" : "never prepared with named statements off"}, and counts every request`, async () => {
      // One connection, so that the statements prepared on it are the ones this test can see.
      const harness = await createTestApp({
        database: { poolSize: 1, namedStatements },
        rateLimitPerMinute: 100,
      });
      try {
        const buyer = await seedBuyer(harness.database);
        const remaining: number[] = [];
        await withinOneWindow();
        for (let index = 0; index < 3; index += 1) {
          const response = await callApi(harness.app, "GET", `/orders?limit=${index + 1}`, {
            key: buyer.apiKey,
          });
          expect(response.status).toBe(200);
          remaining.push(Number(response.headers.get("ratelimit-remaining")));
        }
        expect(remaining).toEqual([99, 98, 97]);

        const prepared = await harness.database.query<{ name: string }>(
          "SELECT name FROM pg_prepared_statements ORDER BY name",
          [],
        );
        expect(prepared.map((row) => row.name)).toEqual(namedStatements ? ["admission"] : []);
      } finally {
        await harness.close();
      }
    });
  }
});
