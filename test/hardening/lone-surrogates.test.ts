// Text that is not well-formed Unicode (a lone surrogate, which JSON's "\ud800"
// escape writes) is refused on both APIs as 422 / VALIDATION_FAILED naming the
// field, before anything is written: docs/design/decisions.md §2 "Problem details".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../graphql/helpers.js";
import { expectProblem } from "../rest/helpers.js";
import { PUBLIC_WEBHOOK_URL } from "../rest/route-fixtures.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

const LONE = "\ud800";

describe("lone surrogates in text inputs", () => {
  let harness: TestApp;
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
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Surrogates");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-01-01"), purchaseOrderReference: "PO-KEEP" },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
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
