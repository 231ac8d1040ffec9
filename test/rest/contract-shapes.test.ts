// Every endpoint's success response, field by field, against the contract
// (docs/reference/contract.md §2 and §4) and docs/design/decisions.md §3.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedApprovals, seedBuyer, seedOrders } from "../support/seed.js";
import { APP_BASE_URL, callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { anyDateTime, anyUuid, DATE_TIME, listBody, objectBody } from "./helpers.js";

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
  let harness: TestApp;
  let buyer: SeededBuyer;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Shapes");
  });
  afterAll(async () => {
    await harness?.close();
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
