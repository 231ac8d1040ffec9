// Every endpoint's success response, field by field, against the contract
// (docs/reference/contract.md §2 and §4) and docs/design/decisions.md §3.
// Also what every response carries (X-Request-Id, RateLimit-*) and the ids it
// takes (decisions.md §2, §3 "Ids", §6).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/route.js";
import { routes } from "../../src/contract/routes.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";
import type { JsonSchema, OpenApiDocument, Parameter } from "../../src/openapi/types.js";
import { encodeGlobalId, type NodeTypeName } from "../../src/schema/global-ids.js";
import { type SeededBuyer, seedApprovals, seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL, callApi, createTestApp, type TestApp } from "../support/test-app.js";
import {
  anyDateTime,
  anyUuid,
  DATE_TIME,
  expectProblem,
  idsOf,
  listBody,
  objectBody,
  UUID,
} from "./helpers.js";
import { pathOf, type RouteFixtures, seedRouteFixtures } from "./route-fixtures.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

const MEASUREMENT_UNITS = ["EA", "L", "MT", "g", "kg", "mL"];
const PRODUCT_TYPES = ["Dye", "Fragrance", "Other", "Packaging", "Raw Material"];
const CONTAINER_TYPES = [
  "Bag",
  "Bottle",
  "Bulk",
  "Bulk Bag",
  "Drum",
  "Flexibag",
  "IBC",
  "ISOTank",
  "Pail",
  "Sample",
  "Tanker",
  "Unit",
];
const DOCUMENT_TYPES = [
  "allergen_statement",
  "animal_testing_statement",
  "batch_coa",
  "bill_of_lading",
  "bill_of_lading_surrendered",
  "brcgs",
  "brochure",
  "certificate_of_origin",
  "commercial_invoice",
  "delivery_note",
  "email",
  "ethylene_oxide_dioxane_certificate",
  "fda_certificate",
  "fssc_22000",
  "gmo_free_statement",
  "gmp_certificate",
  "haccp",
  "halal_certificate",
  "impurities_statement",
  "internal_specification",
  "iso14001",
  "iso9001",
  "kosher_certificate",
  "multi_modal_dangerous_goods_form",
  "nanoparticle_statement",
  "nitrosamine_impurities",
  "other",
  "packing_declaration",
  "packing_list",
  "pif",
  "product_specification",
  "product_watchlist_batch",
  "proof_of_delivery",
  "purchase_order",
  "quality_agreement",
  "quarantine_document",
  "quote",
  "residual_solvent_statement",
  "rspo_certificate",
  "sample_coa",
  "sds",
  "specification_sheet",
  "supplier_questionnaire",
  "tds",
  "tga_certificate",
  "tse_certificate",
];

describe("REST v1 success responses match the contract field by field", () => {
  let buyer: SeededBuyer;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Shapes");
  });

  it("POST /suppliers/{supplier_id}/users is 201 with a supplier user (2.1), names trimmed", async () => {
    const response = await api("POST", `/suppliers/${buyer.supplierId}/users`, {
      first_name: "  Ada ",
      last_name: "Lovelace",
      contact_email: "ada@example.com",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body).toStrictEqual({
      id: anyUuid(),
      first_name: "Ada",
      last_name: "Lovelace",
      contact_email: "ada@example.com",
      supplier_profile_id: buyer.supplierId,
      created_at: anyDateTime(),
      updated_at: anyDateTime(),
    });
    const user = objectBody(response);
    const stored = await harness.database.prisma.supplierUser.findUniqueOrThrow({
      where: { id: String(user.id) },
    });
    expect(user.created_at).toBe(stored.createdAt.toISOString());
  });

  it("POST /taggings is 201 with a tagging result (2.2) and tag objects with their group", async () => {
    const response = await api("POST", "/taggings", {
      taggable_id: buyer.buyerProductId,
      tag_ids: [buyer.tagIds[1], buyer.tagIds[0]],
    });
    expect(response.status).toBe(201);
    expect(response.body).toStrictEqual({
      taggable_type: "BuyerProduct",
      taggable_id: buyer.buyerProductId,
      added_tag_ids: [buyer.tagIds[1], buyer.tagIds[0]],
      tags: [0, 1].map((index) => ({
        id: buyer.tagIds[index],
        name: `Tag ${index}`,
        category: "compliance",
        tag_group: { id: buyer.tagGroupId, name: "Compliance" },
      })),
    });
  });

  it("POST /buyer_products is 201 with every writable field echoed in the contract's spelling", async () => {
    const response = await api("POST", "/buyer_products", {
      raw_material_name: "Shapes Full Product",
      measurement_unit: "mL",
      product_type: "Raw Material",
      raw_material_code: "SHP-FULL-1",
      annual_usage: 1200,
      typical_order_size: 100,
      frequency: "monthly",
      container_type: "Bulk Bag",
      target_approvals: 3,
      priority_product: true,
      active: false,
      document_types: ["sds", "fssc_22000", "iso9001"],
      resource_values: [
        { provider: "erp", value: "6f1c1d2e-0000-4000-8000-000000000001" },
        { provider: "mrp", value: "A-7" },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toStrictEqual({
      id: anyUuid(),
      raw_material_name: "Shapes Full Product",
      measurement_unit: "mL",
      product_type: "Raw Material",
      raw_material_code: "SHP-FULL-1",
      annual_usage: 1200,
      typical_order_size: 100,
      frequency: "monthly",
      container_type: "Bulk Bag",
      target_approvals: 3,
      priority_product: true,
      active: false,
      document_types: ["sds", "fssc_22000", "iso9001"],
      resource_values: [
        { provider: "erp", value: "6f1c1d2e-0000-4000-8000-000000000001" },
        { provider: "mrp", value: "A-7" },
      ],
      created_at: anyDateTime(),
      updated_at: anyDateTime(),
      product_id: anyUuid(),
      auto_match: { matched: false, strategy: "none", score: 0 },
    });
  });

  it("POST /buyer_products with only the required fields applies the defaults and nulls", async () => {
    const response = await api("POST", "/buyer_products", {
      raw_material_name: "Shapes Minimal Product",
      measurement_unit: "kg",
      product_type: "Dye",
    });
    expect(response.status).toBe(201);
    expect(response.body).toStrictEqual({
      id: anyUuid(),
      raw_material_name: "Shapes Minimal Product",
      measurement_unit: "kg",
      product_type: "Dye",
      raw_material_code: null,
      annual_usage: null,
      typical_order_size: null,
      frequency: null,
      container_type: null,
      target_approvals: null,
      priority_product: false,
      active: true,
      document_types: [],
      resource_values: [],
      created_at: anyDateTime(),
      updated_at: anyDateTime(),
      product_id: anyUuid(),
      auto_match: { matched: false, strategy: "none", score: 0 },
    });
  });

  it("accepts and returns every enum value exactly as the contract spells it", async () => {
    const cases = [
      ...MEASUREMENT_UNITS.map((unit) => ({ measurement_unit: unit, product_type: "Other" })),
      ...PRODUCT_TYPES.map((type) => ({ measurement_unit: "EA", product_type: type })),
      ...CONTAINER_TYPES.map((container) => ({
        measurement_unit: "EA",
        product_type: "Packaging",
        container_type: container,
      })),
    ];
    for (const [index, fields] of cases.entries()) {
      const response = await api("POST", "/buyer_products", {
        raw_material_name: `Shapes enum case ${index}`,
        ...fields,
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject(fields);
    }
    const documents = await api("POST", "/buyer_products", {
      raw_material_name: "Shapes every document",
      measurement_unit: "EA",
      product_type: "Other",
      document_types: DOCUMENT_TYPES,
    });
    expect(documents.status).toBe(201);
    expect(objectBody(documents).document_types).toStrictEqual(DOCUMENT_TYPES);
  });

  describe("orders", () => {
    let fullOrderId: string;
    let bareOrderId: string;
    let strangerOrderId: string;
    const createdAt = new Date("2025-03-04T05:06:07.089Z");
    const placedAt = new Date("2025-03-05T10:00:00.000Z");

    beforeAll(async () => {
      [fullOrderId, bareOrderId, strangerOrderId] = (await seedOrders(harness.database, buyer, [
        {
          createdAt,
          orderStatus: "in_transit",
          placedAt,
          purchaseOrderReference: "PO-77",
          supplierOrderReference: "SO-88",
          trackingType: "container",
          resourceValues: [
            { provider: "erp", value: "0d6c3f0e-1111-4000-8000-000000000002" },
            { provider: "wms", value: "W-1" },
          ],
        },
        { createdAt: new Date("2025-03-03T00:00:00.000Z") },
        { createdAt: new Date("2025-03-02T00:00:00.000Z"), supplierId: buyer.unconnectedSupplierId },
      ])) as [string, string, string];
    });

    const fullOrder = () => ({
      id: fullOrderId,
      url: `${APP_BASE_URL}/orders/${fullOrderId}`,
      supplier_profile_id: buyer.supplierId,
      buyer_product_approval_id: buyer.approvalId,
      price_type: "ex_stock",
      quantity: 4,
      price_per_uom: 2.35,
      tax_amount: 940,
      tax_percentage: 10,
      price_total: 10340.5,
      currency: "AUD",
      profile_connection_relationship: "approved_supplier",
      order_reference: "ORD-0",
      order_status: "in_transit",
      purchase_order_reference: "PO-77",
      supplier_order_reference: "SO-88",
      order_type: { id: buyer.orderTypeId, type_of: "local" },
      resource_values: [
        { provider: "erp", value: "0d6c3f0e-1111-4000-8000-000000000002" },
        { provider: "wms", value: "W-1" },
      ],
      tracking_type: "container",
      additional_data: {
        product: { buyer_product_display_name: "Glycerine USP" },
        supplier: { supplier_name: "Shapes Supplier" },
      },
      placed_at: placedAt.toISOString(),
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      delivery_site: {
        id: buyer.deliverySiteId,
        site_name: "Main Plant",
        address: {
          street: "1 Factory Rd",
          city: "Dandenong",
          state: "VIC",
          postcode: "3175",
          country: "AU",
          full_address: "1 Factory Rd, Dandenong VIC 3175, AU",
        },
      },
    });

    it("GET /orders is 200 with a bare array of orders (2.5), every field present", async () => {
      const response = await api("GET", "/orders");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const [first, second, third] = listBody(response);
      expect(first).toStrictEqual(fullOrder());
      expect(second).toStrictEqual({
        ...fullOrder(),
        id: bareOrderId,
        url: `${APP_BASE_URL}/orders/${bareOrderId}`,
        order_reference: "ORD-1",
        order_status: "quote_selected",
        purchase_order_reference: null,
        supplier_order_reference: null,
        resource_values: [],
        tracking_type: null,
        placed_at: null,
        created_at: "2025-03-03T00:00:00.000Z",
        updated_at: "2025-03-03T00:00:00.000Z",
      });
      // Without a connection to the order's supplier there is no relationship to show.
      expect(third).toMatchObject({
        id: strangerOrderId,
        supplier_profile_id: buyer.unconnectedSupplierId,
        profile_connection_relationship: null,
        additional_data: { supplier: { supplier_name: "Shapes Stranger" } },
      });
    });

    it("PATCH /orders/{id} is 200 with the updated order in the same shape", async () => {
      const response = await api("PATCH", `/orders/${fullOrderId}`, { purchase_order_reference: "PO-78" });
      expect(response.status).toBe(200);
      const body = objectBody(response);
      expect(body).toStrictEqual({
        ...fullOrder(),
        purchase_order_reference: "PO-78",
        updated_at: expect.stringMatching(DATE_TIME),
      });
      expect(Date.parse(String(body.updated_at))).toBeGreaterThan(createdAt.getTime());
    });
  });

  it("GET /buyer_product_approvals is 200 with a bare array of approvals (2.6), nulls as null", async () => {
    const [withoutSupplier] = await seedApprovals(harness.database, buyer, [
      {
        approvalStatus: "sample_requested",
        supplierId: null,
        createdAt: new Date("2030-01-01T00:00:00.000Z"),
      },
    ]);
    const response = await api("GET", "/buyer_product_approvals");
    expect(response.status).toBe(200);
    const stored = await harness.database.prisma.buyerProductApproval.findUniqueOrThrow({
      where: { id: buyer.approvalId },
    });
    expect(listBody(response)).toStrictEqual([
      {
        id: withoutSupplier,
        approval_status: "sample_requested",
        supplier_name: null,
        catalogue_parent_display_name: null,
        catalogue_parent_product_code: null,
        reference: null,
        buyer_product_id: buyer.buyerProductId,
        supplier_profile_id: null,
        created_at: "2030-01-01T00:00:00.000Z",
        updated_at: "2030-01-01T00:00:00.000Z",
      },
      {
        id: buyer.approvalId,
        approval_status: "approved",
        supplier_name: "Shapes Supplier",
        catalogue_parent_display_name: null,
        catalogue_parent_product_code: null,
        reference: "APP-1",
        buyer_product_id: buyer.buyerProductId,
        supplier_profile_id: buyer.supplierId,
        created_at: stored.createdAt.toISOString(),
        updated_at: stored.updatedAt.toISOString(),
      },
    ]);
  });
});

// decisions.md §2 and §6: X-Request-Id on every response, RateLimit-* on
// every response to a request with a valid key.
describe("REST v1 response headers", () => {
  let buyer: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Headers");
    [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-01-01") }]);
  });

  const requests = (): [
    string,
    string,
    string,
    { key?: string | null; body?: unknown; rawBody?: string },
  ][] => [
    ["200 list", "GET", "/orders", { key: buyer.apiKey }],
    [
      "201 create",
      "POST",
      "/buyer_products",
      {
        key: buyer.apiKey,
        body: { raw_material_name: "Header Product", measurement_unit: "kg", product_type: "Other" },
      },
    ],
    ["200 update", "PATCH", `/orders/${orderId}`, { key: buyer.apiKey, body: {} }],
    ["400", "POST", "/taggings", { key: buyer.apiKey, rawBody: "[" }],
    ["401", "GET", "/orders", { key: null }],
    ["404 path", "GET", "/nope", { key: buyer.apiKey }],
    ["404 record", "PATCH", "/orders/c0ffee00-0000-4000-8000-000000000000", { key: buyer.apiKey, body: {} }],
    ["405", "DELETE", "/orders", { key: buyer.apiKey }],
    ["422", "GET", "/orders?limit=0", { key: buyer.apiKey }],
    ["health", "GET", "http://localhost/healthz", {}],
  ];

  it("every response carries a new UUID X-Request-Id when none was sent, a different one each time", async () => {
    const seen = new Set<string>();
    for (const [name, method, path, options] of requests()) {
      const response = await callApi(harness.app, method, path, options);
      const requestId = response.headers.get("x-request-id");
      expect(requestId, name).toMatch(UUID);
      seen.add(requestId ?? "");
      if (response.headers.get("content-type") === "application/problem+json") {
        expect(response.body, name).toMatchObject({ request_id: requestId });
      }
    }
    expect(seen.size).toBe(requests().length);
  });

  it.each(["abc-123", "req_01J9Z.x:y", "A".repeat(128)])(
    "echoes the sane X-Request-Id %s",
    async (incoming) => {
      for (const [name, method, path, options] of requests()) {
        const response = await callApi(harness.app, method, path, {
          ...options,
          headers: { "x-request-id": incoming },
        });
        expect(response.headers.get("x-request-id"), name).toBe(incoming);
        if (response.status >= 400) expect(response.body, name).toMatchObject({ request_id: incoming });
      }
    },
  );

  it.each([
    ["too long", "A".repeat(129)],
    ["with spaces", "abc def"],
    ["with a newline escape attempt", "abc%0d%0aSet-Cookie:x"],
    ["with quotes and angle brackets", '<script>"x"</script>'],
    ["with non-ASCII", "requête"],
  ])("replaces an X-Request-Id %s by a new UUID", async (_name, incoming) => {
    const response = await harness.app.fetch("http://localhost/api/public/buyer/v1/orders?limit=0", {
      headers: { "x-api-key": buyer.apiKey, "x-request-id": incoming },
    });
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(UUID);
    expect(((await response.json()) as { request_id: string }).request_id).toBe(requestId);
  });

  it("sends RateLimit-Limit, -Remaining and -Reset on every response to a valid key", async () => {
    for (const [name, method, path, options] of requests()) {
      if (!options.key) continue;
      const response = await callApi(harness.app, method, path, options);
      expect(response.headers.get("ratelimit-limit"), name).toBe("100000");
      const remaining = Number(response.headers.get("ratelimit-remaining"));
      expect(Number.isInteger(remaining), name).toBe(true);
      expect(remaining, name).toBeGreaterThanOrEqual(0);
      expect(remaining, name).toBeLessThan(100_000);
      const reset = Number(response.headers.get("ratelimit-reset"));
      expect(Number.isInteger(reset), name).toBe(true);
      expect(reset, name).toBeGreaterThanOrEqual(1);
      expect(reset, name).toBeLessThanOrEqual(60);
    }
  });

  it("sends no RateLimit headers without a valid key", async () => {
    const response = await callApi(harness.app, "GET", "/orders", { key: "bpk_wrong" });
    expect(response.status).toBe(401);
    expect(response.headers.get("ratelimit-limit")).toBeNull();
    expect(response.headers.get("ratelimit-remaining")).toBeNull();
  });
});

// docs/design/decisions.md §3 "Ids": every id the REST API takes, in a path, a query
// or a body, is the record's UUID or, for a record with one, its global ID,
// and the OpenAPI document says which.
const ID_OR_GLOBAL_ID = "#/components/schemas/IdOrGlobalId";
const routesWithIds = routes.filter((route) => route.path.includes("{"));

describe("global IDs in the REST API", { timeout: 60_000 }, () => {
  let fixtures: RouteFixtures;
  let document: OpenApiDocument;

  beforeAll(async () => {
    fixtures = await seedRouteFixtures(harness);
    document = (await (await harness.app.fetch(`http://localhost${OPENAPI_PATH}`)).json()) as OpenApiDocument;
  });

  const call = (method: string, path: string, body?: unknown, key = fixtures.buyer.apiKey) =>
    callApi(harness.app, method, path, { key, body });

  /** The same call with each path id written by `write` (given the UUID and its record's Node type). */
  async function callWith(
    route: (typeof routes)[number],
    write: (uuid: string, nodeType: NodeTypeName | null, name: string) => string,
    key?: string,
  ) {
    const path = await pathOf(route, async (name) => {
      const record = fixtures.pathRecord(route, name);
      return write(await record.id(), record.nodeType, name);
    });
    return call(route.method, path, fixtures.validBody(route), key);
  }

  const otherType = (nodeType: NodeTypeName | null): NodeTypeName =>
    nodeType === "Order" ? "BuyerProduct" : "Order";

  describe.each(routesWithIds.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s",
    (_name, route) => {
      const nodeTypes = () =>
        Object.keys(route.pathParameters ?? {}).map((name) => fixtures.pathRecord(route, name).nodeType);

      it("the document says whether the path id takes a global ID, as the service does", () => {
        const operation = document.paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase() as "get"];
        const pathParameters = (operation?.parameters ?? []).filter(
          (parameter): parameter is Parameter => "in" in parameter && parameter.in === "path",
        );
        expect(pathParameters.length).toBeGreaterThan(0);
        for (const parameter of pathParameters) {
          const { nodeType } = fixtures.pathRecord(route, parameter.name);
          expect(parameter.schema).toEqual(
            nodeType ? { $ref: ID_OR_GLOBAL_ID } : { type: "string", format: "uuid" },
          );
          expect(/global ID/.test(parameter.description ?? "")).toBe(nodeType !== null);
        }
      });

      it("a global ID of the record answers as its UUID does", async () => {
        if (nodeTypes().every((type) => type === null)) return;
        const byUuid = await callWith(route, (uuid) => uuid);
        expect(byUuid.status).toBeLessThan(300);
        const byGlobalId = await callWith(route, (uuid, type) => (type ? encodeGlobalId(type, uuid) : uuid));
        expect(byGlobalId.status).toBe(byUuid.status);
        if (route.method === "GET") expect(byGlobalId.body).toEqual(byUuid.body);
      });

      it("another organisation's record is 404 by its global ID as by its UUID", async () => {
        if (nodeTypes().every((type) => type === null)) return;
        const { other } = fixtures;
        const response = await callWith(
          route,
          (uuid, type) => (type ? encodeGlobalId(type, uuid) : uuid),
          other.apiKey,
        );
        expectProblem(response, 404, "not_found");
      });

      it("a global ID of another type, or text that is no id, is 404", async () => {
        const wrongType = await callWith(route, (uuid, type) => encodeGlobalId(otherType(type), uuid));
        expectProblem(wrongType, 404, "not_found");
        expectProblem(await callWith(route, () => "not-an-id"), 404, "not_found");
      });
    },
  );

  it("ids in a query or a body take a global ID where the document says so", async () => {
    const { buyer } = fixtures;
    const productGlobalId = encodeGlobalId("BuyerProduct", buyer.buyerProductId);
    const byUuid = await call("GET", `/buyer_product_approvals?buyer_product_id=${buyer.buyerProductId}`);
    const byGlobalId = await call("GET", `/buyer_product_approvals?buyer_product_id=${productGlobalId}`);
    expect(idsOf(byUuid)).toEqual([buyer.approvalId]);
    expect(byGlobalId.body).toEqual(byUuid.body);
    const tagged = await call("POST", "/taggings", {
      taggable_id: productGlobalId,
      tag_ids: [buyer.tagIds[1]],
    });
    expect(tagged.status).toBe(201);
    expect(tagged.body).toMatchObject({ taggable_id: buyer.buyerProductId });
    const wrongType = await call(
      "GET",
      `/buyer_product_approvals?buyer_product_id=${encodeGlobalId("Order", fixtures.orderId)}`,
    );
    expectProblem(wrongType, 422, "validation_failed", [["buyer_product_id", "invalid"]]);
  });

  it("every id the document describes as taking a global ID has the schema that says so, and no other does", () => {
    const mismatches: string[] = [];
    const check = (where: string, schema: JsonSchema | undefined, description: string | undefined) => {
      if (!schema) return;
      const items = schema.type === "array" ? schema.items : schema;
      const takesGlobalIds = items?.$ref === ID_OR_GLOBAL_ID;
      if (takesGlobalIds !== /global ID/.test(description ?? "")) mismatches.push(where);
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        for (const parameter of operation.parameters)
          if ("in" in parameter)
            check(`${method} ${path} ${parameter.name}`, parameter.schema, parameter.description);
    for (const [name, schema] of Object.entries(document.components.schemas))
      if (name.endsWith("Request") || name.endsWith("Input"))
        for (const [property, value] of Object.entries(schema.properties ?? {}))
          check(`${name}.${property}`, value, value.description);
    expect(mismatches).toEqual([]);
  });
});
