import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

// Hostile and random input for every endpoint: the service must answer with
// a 4xx problem (or a success), never a 500, never a stack trace, and a
// refused request must leave the data as it was.

const hostileStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom(
    "'; DROP TABLE orders; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "\u0000\u0001\u0002",
    "🧪🧴💧",
    "x".repeat(5000),
    "NaN",
    "-0",
    "1e309",
    "{{ 7*7 }}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, sent as plain text on purpose
    "${jndi:ldap://x}",
    "00000000-0000-0000-0000-000000000000",
  ),
);

const hostileValues: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileStrings,
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 53, -(2 ** 63), 1e308, 0.1),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileStrings, tie("value"), { maxKeys: 4 }),
  ),
})).value;

const FIELD_NAMES = [
  "first_name",
  "last_name",
  "contact_email",
  "taggable_id",
  "tag_ids",
  "raw_material_name",
  "measurement_unit",
  "product_type",
  "raw_material_code",
  "annual_usage",
  "typical_order_size",
  "container_type",
  "document_types",
  "resource_values",
  "priority_product",
  "active",
  "order_status",
  "purchase_order_reference",
  "placed_at",
  "__proto__",
  "constructor",
];

const hostileBodies = fc.oneof(
  fc
    .dictionary(fc.constantFrom(...FIELD_NAMES), hostileValues, { maxKeys: 8 })
    .map((body) => JSON.stringify(body)),
  hostileValues.map((value) => JSON.stringify(value) ?? "null"),
  hostileStrings,
  fc.constant(`${"[".repeat(5000)}${"]".repeat(5000)}`),
  fc.constant(`{"a":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`),
);

const hostileQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "limit",
        "cursor",
        "created_at_from",
        "created_at_to",
        "order_status[]",
        "order_status",
        "x",
      ),
      hostileStrings,
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&"),
  );

const STACK_TRACE = /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|PrismaClient|SELECT |INSERT /;

describe("hostile input", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderId: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Fuzz");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-03-01T00:00:00Z"), orderStatus: "order_confirmed" },
    ]);
    const { prisma } = harness.database;
    snapshot = async () =>
      JSON.stringify([
        await prisma.order.findMany({ orderBy: { id: "asc" }, include: { resourceValues: true } }),
        await prisma.supplierUser.count(),
        await prisma.buyerProduct.count(),
        await prisma.product.count(),
        await prisma.tagging.count(),
        await prisma.orderEvent.count(),
      ]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  function expectNoLeak(status: number, text: string): void {
    expect(status, text).toBeLessThan(500);
    expect(text).not.toMatch(STACK_TRACE);
  }

  it("never answers a write with a 500 or a stack trace, and a refused write changes nothing", async () => {
    const targets = [
      () => ["POST", `/suppliers/${buyer.supplierId}/users`],
      () => ["POST", "/taggings"],
      () => ["POST", "/buyer_products"],
      () => ["PATCH", `/orders/${orderId}`],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: targets.length - 1 }),
        hostileBodies,
        async (index, rawBody) => {
          const [method = "POST", path = "/"] = targets[index]?.() ?? [];
          const before = await snapshot();
          const response = await callApi(harness.app, method, path, { key: buyer.apiKey, rawBody });
          expectNoLeak(response.status, response.text);
          if (response.status >= 400) expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("never answers a list with a 500, whatever the query string", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/orders", "/buyer_product_approvals"),
        hostileQuery,
        async (path, query) => {
          const response = await callApi(harness.app, "GET", `${path}?${query}`, { key: buyer.apiKey });
          expectNoLeak(response.status, response.text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("never answers a hostile path or header with a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileStrings,
        hostileStrings.filter((value) => /^[\t\x20-\x7e]*$/.test(value)),
        async (segment, header) => {
          const response = await callApi(harness.app, "PATCH", `/orders/${encodeURIComponent(segment)}`, {
            key: buyer.apiKey,
            body: {},
            headers: { "x-request-id": header, "idempotency-key": header || "k" },
          });
          expectNoLeak(response.status, response.text);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("never answers GraphQL with a 500 or a stack trace", async () => {
    const documents = fc.oneof(
      hostileStrings,
      fc.constantFrom(
        "{ orders(first: -1) { edges { node { id } } } }",
        "{ orders(first: 99999999999) { edges { node { id } } } }",
        '{ orders(after: "!!") { edges { node { id } } } }',
        'mutation { updateOrder(id: "not-a-uuid", input: {}) { id } }',
        `{ ${"a: __typename ".repeat(2000)} }`,
        `{ orders { edges { node { ${"id ".repeat(3000)} } } } }`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(documents, hostileValues, async (query, variables) => {
        const response = await harness.app.fetch("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
          body: JSON.stringify({ query, variables }),
        });
        expectNoLeak(response.status, await response.text());
      }),
      { numRuns: 60 },
    );
  });
});
