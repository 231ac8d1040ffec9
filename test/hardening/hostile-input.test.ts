// Hostile input on both APIs, on one app: random and hostile bodies, query
// strings, paths, headers and GraphQL documents are answered with a 4xx
// problem (or a success), never a 500 or a stack trace, and a refused request
// leaves the data as it was; text that is not well-formed Unicode (a lone
// surrogate, which JSON's "\ud800" escape writes) is refused as 422 /
// VALIDATION_FAILED naming the field, before anything is written
// (docs/design/decisions.md §2 "Problem details").
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../graphql/helpers.js";
import { expectProblem } from "../rest/helpers.js";
import { PUBLIC_WEBHOOK_URL } from "../rest/route-fixtures.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

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
  let buyer: SeededBuyer;
  let orderId: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
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

const LONE = "\ud800";

describe("lone surrogates in text inputs", () => {
  let buyer: SeededBuyer;
  let orderId: string;

  /** What any write would change: the change log, the rows the sample writes to, and the order itself. */
  const state = async () => {
    const { prisma } = harness.database;
    const [changeLog] = await prisma.$queryRawUnsafe<{ entries: number }[]>(
      "SELECT count(*)::int AS entries FROM change_log",
    );
    return {
      changeLog: changeLog?.entries,
      order: await prisma.order.findUniqueOrThrow({ where: { id: orderId } }),
      orderEvents: await prisma.orderEvent.count(),
      buyerProducts: await prisma.buyerProduct.count(),
      supplierUsers: await prisma.supplierUser.count(),
      webhookEndpoints: await prisma.webhookEndpoint.count(),
    };
  };

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Surrogates");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-01-01"), purchaseOrderReference: "PO-KEEP" },
    ]);
  });

  it("REST: PATCH /orders/{id} with a lone surrogate is 422 naming the field, and writes nothing", async () => {
    const before = await state();
    // The escape as a client's JSON carries it.
    const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      rawBody: '{"purchase_order_reference":"PO-\\ud800"}',
    });
    expectProblem(response, 422, "validation_failed", [["purchase_order_reference", "invalid"]]);
    expect(await state()).toEqual(before);
  });

  it.each<[string, string, () => string, () => Record<string, unknown>, [string, string][]]>([
    [
      "an order's references and identifiers",
      "PATCH",
      () => `/orders/${orderId}`,
      () => ({
        supplier_order_reference: `SO${LONE}`,
        resource_values: [{ provider: "ERP", value: `V${LONE}` }],
      }),
      [
        ["supplier_order_reference", "invalid"],
        ["resource_values[0].value", "invalid"],
      ],
    ],
    [
      "a buyer product's name and code",
      "POST",
      () => "/buyer_products",
      () => ({
        raw_material_name: `Glycerin ${LONE}`,
        raw_material_code: `\udfff`,
        measurement_unit: "kg",
        product_type: "Other",
      }),
      [
        ["raw_material_name", "invalid"],
        ["raw_material_code", "invalid"],
      ],
    ],
    [
      "a supplier user's names",
      "POST",
      () => `/suppliers/${buyer.supplierId}/users`,
      () => ({ first_name: `Grace${LONE}`, last_name: "Hopper", contact_email: "grace@example.com" }),
      [["first_name", "invalid"]],
    ],
    [
      "a webhook endpoint's description",
      "POST",
      () => "/webhook_endpoints",
      () => ({ url: PUBLIC_WEBHOOK_URL, enabled_events: ["order.updated"], description: `ERP ${LONE}` }),
      [["description", "invalid"]],
    ],
  ])(
    "REST: %s are refused with 422 naming each, and nothing is written",
    async (_name, method, path, body, fields) => {
      const before = await state();
      const response = await callApi(harness.app, method, path(), { key: buyer.apiKey, body: body() });
      expectProblem(response, 422, "validation_failed", fields);
      expect(await state()).toEqual(before);
    },
  );

  it("GraphQL: updateOrder with a lone surrogate is VALIDATION_FAILED naming the field, and writes nothing", async () => {
    const before = await state();
    const response = await graphql(
      harness.app,
      `mutation ($id: UUID!, $input: UpdateOrderInput!) { updateOrder(id: $id, input: $input) { id } }`,
      { key: buyer.apiKey, variables: { id: orderId, input: { purchaseOrderReference: `PO-${LONE}` } } },
    );
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["input", "purchaseOrderReference"], code: "invalid" }],
    });
    expect(await state()).toEqual(before);
  });

  it.each<[string, string, () => Record<string, unknown>, (string | number)[][]]>([
    [
      "createBuyerProduct",
      `mutation ($input: CreateBuyerProductInput!) { createBuyerProduct(input: $input) { buyerProduct { id } } }`,
      () => ({
        input: {
          rawMaterialName: "Glycerin",
          measurementUnit: "KG",
          productType: "OTHER",
          resourceValues: [{ provider: `ERP${LONE}`, value: "1" }],
        },
      }),
      [["input", "resourceValues", 0, "provider"]],
    ],
    [
      "createSupplierUser",
      `mutation ($input: CreateSupplierUserInput!) { createSupplierUser(input: $input) { id } }`,
      () => ({
        input: {
          supplierId: buyer.supplierId,
          firstName: "Ada",
          lastName: `Lovelace${LONE}`,
          contactEmail: "ada@example.com",
        },
      }),
      [["input", "lastName"]],
    ],
    [
      "createWebhookEndpoint",
      `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }`,
      () => ({
        input: { url: PUBLIC_WEBHOOK_URL, enabledEvents: ["order.updated"], description: `${LONE}x` },
      }),
      [["input", "description"]],
    ],
    [
      "tags (a search)",
      `query ($search: String) { tags(query: $search) { totalCount } }`,
      () => ({ search: `Tag${LONE}` }),
      [["query"]],
    ],
  ])(
    "GraphQL: %s refuses a lone surrogate as VALIDATION_FAILED naming the field",
    async (_name, query, variables, paths) => {
      const before = await state();
      const response = await graphql(harness.app, query, { key: buyer.apiKey, variables: variables() });
      expect(response.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
      const fieldErrors = response.errors?.[0]?.extensions?.fieldErrors as {
        path: unknown[];
        code: string;
      }[];
      expect(fieldErrors.map((problem) => problem.path)).toEqual(paths);
      expect(fieldErrors.map((problem) => problem.code)).toEqual(paths.map(() => "invalid"));
      expect(await state()).toEqual(before);
    },
  );

  it("GraphQL: the typed twin answers a lone surrogate in userErrors", async () => {
    const response = await graphql<{ orderUpdate: { userErrors: { field: string[]; fieldCode: string }[] } }>(
      harness.app,
      `mutation ($id: UUID!, $input: UpdateOrderInput!) {
        orderUpdate(id: $id, input: $input) { order { id } userErrors { field fieldCode } } }`,
      { key: buyer.apiKey, variables: { id: orderId, input: { purchaseOrderReference: `PO-${LONE}` } } },
    );
    expect(response.data?.orderUpdate.userErrors).toEqual([
      { field: ["input", "purchaseOrderReference"], fieldCode: "INVALID" },
    ]);
  });

  it("well-formed text beyond the Basic Multilingual Plane (a surrogate pair) is written", async () => {
    const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      rawBody: '{"purchase_order_reference":"PO-\\ud83d\\ude00"}',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ purchase_order_reference: "PO-😀" });
  });
});
