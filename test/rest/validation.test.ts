// decisions.md §2–§3: 422 validation_failed with every bad field named in
// the REST spelling, and 409 already_exists, on every endpoint that takes input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { errorFields, expectProblem, idsOf, type ProblemBody } from "./helpers.js";

const LONG = "x".repeat(256);
const LONGEST = "y".repeat(255);
const UNKNOWN_ID = "c0ffee00-0000-4000-8000-000000000000";
/** A cursor shaped like ours (time and id, base64url) but for a time we never wrote. */
const cursorAt = (time: string) => Buffer.from(`${time}|${UNKNOWN_ID}`).toString("base64url");

describe("REST v1 validation errors", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderId: string;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Validation");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-01-01"), purchaseOrderReference: "PO-KEEP" },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe("POST /suppliers/{supplier_id}/users", () => {
    const path = () => `/suppliers/${buyer.supplierId}/users`;
    const valid = { first_name: "Grace", last_name: "Hopper", contact_email: "grace@example.com" };

    it("names every missing required field", async () => {
      const response = await api("POST", path(), {});
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("an empty body is the same as {}", async () => {
      const response = await callApi(harness.app, "POST", path(), { key: buyer.apiKey });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("refuses null and blank values as missing", async () => {
      const nulls = await api("POST", path(), { ...valid, first_name: null, contact_email: null });
      expectProblem(nulls, 422, "validation_failed", [
        ["first_name", "required"],
        ["contact_email", "required"],
      ]);
      const blanks = await api("POST", path(), { first_name: "", last_name: "   ", contact_email: "\t" });
      expectProblem(blanks, 422, "validation_failed", [
        ["first_name", "required"],
        ["last_name", "required"],
        ["contact_email", "required"],
      ]);
    });

    it("refuses a 256-character field and accepts 255", async () => {
      for (const field of ["first_name", "last_name"] as const) {
        const response = await api("POST", path(), { ...valid, [field]: LONG });
        expectProblem(response, 422, "validation_failed", [[field, "too_long"]]);
      }
      const email = await api("POST", path(), { ...valid, contact_email: `${"e".repeat(244)}@example.com` });
      expectProblem(email, 422, "validation_failed", [["contact_email", "too_long"]]);
      const longest = await api("POST", path(), {
        first_name: LONGEST,
        last_name: LONGEST,
        contact_email: "longest@example.com",
      });
      expect(longest.status).toBe(201);
      expect(longest.body).toMatchObject({ first_name: LONGEST, last_name: LONGEST });
    });

    it("refuses wrong types", async () => {
      const response = await api("POST", path(), {
        first_name: 42,
        last_name: ["Hopper"],
        contact_email: {},
      });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "invalid"],
        ["last_name", "invalid"],
        ["contact_email", "invalid"],
      ]);
    });

    it.each(["not-an-email", "a@b", "two@@example.com", "spaced out@example.com", "@example.com"])(
      "refuses the email %j",
      async (contactEmail) => {
        const response = await api("POST", path(), { ...valid, contact_email: contactEmail });
        expectProblem(response, 422, "validation_failed", [["contact_email", "invalid"]]);
      },
    );

    it("refuses the NUL character, which no text column can hold", async () => {
      const response = await api("POST", path(), {
        first_name: "Gr\u0000ace",
        last_name: "\u0000",
        contact_email: "nul\u0000@example.com",
      });
      expectProblem(response, 422, "validation_failed", [
        ["first_name", "invalid"],
        ["last_name", "invalid"],
        ["contact_email", "invalid"],
      ]);
    });

    it("409 already_exists for the same email in another case under the same supplier", async () => {
      const first = await api("POST", path(), { ...valid, contact_email: "Dup.User@Example.com" });
      expect(first.status).toBe(201);
      const again = await api("POST", path(), { ...valid, contact_email: "dup.user@EXAMPLE.COM" });
      expectProblem(again, 409, "already_exists");
      const padded = await api("POST", path(), { ...valid, contact_email: "  DUP.USER@example.com " });
      expectProblem(padded, 409, "already_exists");
      expect(
        await harness.database.prisma.supplierUser.count({
          where: { contactEmailKey: "dup.user@example.com" },
        }),
      ).toBe(1);
    });
  });

  describe("POST /taggings", () => {
    it("names both missing fields", async () => {
      const response = await api("POST", "/taggings", {});
      expectProblem(response, 422, "validation_failed", [
        ["taggable_id", "required"],
        ["tag_ids", "required"],
      ]);
    });

    it("names a malformed taggable id and each malformed tag id by index", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: "not-a-uuid",
        tag_ids: [buyer.tagIds[0], buyer.tagIds[1], "nope"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["taggable_id", "invalid"],
        ["tag_ids[2]", "invalid"],
      ]);
    });

    it.each([
      ["a number", 7],
      ["a UUID with a trailing brace", `${UNKNOWN_ID}}`],
      ["a UUID with a leading brace", `{${UNKNOWN_ID}`],
      ["a UUID without dashes", UNKNOWN_ID.replaceAll("-", "")],
      ["a UUID with a space", ` ${UNKNOWN_ID}`],
    ])("a taggable id that is %s is 422", async (_name, taggableId) => {
      const response = await api("POST", "/taggings", {
        taggable_id: taggableId,
        tag_ids: [buyer.tagIds[0]],
      });
      expectProblem(response, 422, "validation_failed", [["taggable_id", "invalid"]]);
    });

    it("a tag id with a trailing brace is 422 naming it", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: [buyer.tagIds[0], `${buyer.tagIds[1]}}`],
      });
      expectProblem(response, 422, "validation_failed", [["tag_ids[1]", "invalid"]]);
    });

    it("refuses tag_ids that is not an array of UUID strings, even a single UUID", async () => {
      for (const tagIds of [buyer.tagIds[0], {}, [7], [null]]) {
        const response = await api("POST", "/taggings", {
          taggable_id: buyer.buyerProductId,
          tag_ids: tagIds,
        });
        expect(response.status).toBe(422);
        expect(errorFields(response)[0]).toMatch(/^tag_ids/);
      }
    });

    it("0 or 101 tag ids is 422 on tag_ids", async () => {
      const none = await api("POST", "/taggings", { taggable_id: buyer.buyerProductId, tag_ids: [] });
      expectProblem(none, 422, "validation_failed", [["tag_ids", "required"]]);
      const many = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: Array.from({ length: 101 }, () => buyer.tagIds[0]),
      });
      expectProblem(many, 422, "validation_failed", [["tag_ids", "too_many"]]);
      expect(await harness.database.prisma.tagging.count()).toBe(0);
    });

    it("an unknown taggable is 404, an unknown tag is 422 naming tag_ids[i]", async () => {
      const taggable = await api("POST", "/taggings", {
        taggable_id: UNKNOWN_ID,
        tag_ids: [buyer.tagIds[0]],
      });
      expectProblem(taggable, 404, "not_found");
      const tag = await api("POST", "/taggings", {
        taggable_id: buyer.buyerProductId,
        tag_ids: [buyer.tagIds[0], UNKNOWN_ID, buyer.tagIds[1], UNKNOWN_ID],
      });
      expectProblem(tag, 422, "validation_failed", [
        ["tag_ids[1]", "not_found"],
        ["tag_ids[3]", "not_found"],
      ]);
      expect(await harness.database.prisma.tagging.count()).toBe(0);
    });

    it("ids in upper case name the same records", async () => {
      const response = await api("POST", "/taggings", {
        taggable_id: buyer.approvalId.toUpperCase(),
        tag_ids: [buyer.tagIds[2]?.toUpperCase()],
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        taggable_type: "BuyerProductApproval",
        taggable_id: buyer.approvalId,
        added_tag_ids: [buyer.tagIds[2]],
      });
    });
  });

  describe("POST /buyer_products", () => {
    const valid = { raw_material_name: "Validation Product", measurement_unit: "kg", product_type: "Other" };

    it("names every missing required field", async () => {
      const response = await api("POST", "/buyer_products", {});
      expectProblem(response, 422, "validation_failed", [
        ["raw_material_name", "required"],
        ["measurement_unit", "required"],
        ["product_type", "required"],
      ]);
    });

    it("refuses enum values in any spelling but the contract's", async () => {
      const response = await api("POST", "/buyer_products", {
        raw_material_name: "Spelling",
        measurement_unit: "ml",
        product_type: "RAW_MATERIAL",
        container_type: "BulkBag",
        document_types: ["sds", "SDS", "safety_sheet"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["measurement_unit", "invalid"],
        ["product_type", "invalid"],
        ["container_type", "invalid"],
        ["document_types[1]", "invalid"],
        ["document_types[2]", "invalid"],
      ]);
      const problem = response.body as ProblemBody;
      const message = problem.errors?.find((error) => error.field === "product_type")?.message;
      expect(message).toBe("must be one of: Dye, Fragrance, Other, Packaging, Raw Material");
      for (const productType of ["raw material", "RawMaterial", "Raw  Material"]) {
        const again = await api("POST", "/buyer_products", { ...valid, product_type: productType });
        expectProblem(again, 422, "validation_failed", [["product_type", "invalid"]]);
      }
    });

    it("refuses wrong types", async () => {
      const response = await api("POST", "/buyer_products", {
        raw_material_name: 12,
        measurement_unit: "kg",
        product_type: "Other",
        raw_material_code: true,
        annual_usage: "12",
        typical_order_size: 1.5,
        frequency: 7,
        target_approvals: 3_000_000_000,
        priority_product: "yes",
        active: 1,
        document_types: "sds,tds",
        resource_values: { provider: "erp", value: "1" },
      });
      expect(response.status).toBe(422);
      expect(errorFields(response).sort()).toEqual(
        [
          "raw_material_name",
          "raw_material_code",
          "annual_usage",
          "typical_order_size",
          "frequency",
          "target_approvals",
          "priority_product",
          "active",
          "document_types",
          "resource_values",
        ].sort(),
      );
    });

    it("refuses blank and too long strings", async () => {
      const blank = await api("POST", "/buyer_products", { ...valid, raw_material_name: "  " });
      expectProblem(blank, 422, "validation_failed", [["raw_material_name", "required"]]);
      const long = await api("POST", "/buyer_products", {
        ...valid,
        raw_material_name: LONG,
        raw_material_code: LONG,
        frequency: LONG,
      });
      expectProblem(long, 422, "validation_failed", [
        ["raw_material_name", "too_long"],
        ["raw_material_code", "too_long"],
        ["frequency", "too_long"],
      ]);
    });

    it("refuses the NUL character in any text", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        raw_material_name: "Nul\u0000Name",
        raw_material_code: "\u0000",
        frequency: "weekly\u0000",
        resource_values: [{ provider: "erp", value: "\u0000v" }],
      });
      expectProblem(response, 422, "validation_failed", [
        ["raw_material_name", "invalid"],
        ["raw_material_code", "invalid"],
        ["frequency", "invalid"],
        ["resource_values[0].value", "invalid"],
      ]);
    });

    it("refuses negative integers and repeated document types", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        annual_usage: -1,
        typical_order_size: -5,
        target_approvals: -2,
        document_types: ["sds", "tds", "sds"],
      });
      expectProblem(response, 422, "validation_failed", [
        ["annual_usage", "out_of_range"],
        ["typical_order_size", "out_of_range"],
        ["target_approvals", "out_of_range"],
        ["document_types[2]", "duplicate"],
      ]);
    });

    it("names bad resource values by index and field, and refuses more than 50", async () => {
      const response = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: [
          { provider: "erp", value: "ok" },
          { provider: " ", value: "x" },
          { provider: "mrp" },
        ],
      });
      expectProblem(response, 422, "validation_failed", [["resource_values[2].value", "required"]]);
      const blank = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: [
          { provider: "erp", value: "ok" },
          { provider: " ", value: LONG },
        ],
      });
      expectProblem(blank, 422, "validation_failed", [
        ["resource_values[1].provider", "required"],
        ["resource_values[1].value", "too_long"],
      ]);
      const many = await api("POST", "/buyer_products", {
        ...valid,
        resource_values: Array.from({ length: 51 }, (_, index) => ({ provider: "erp", value: `v${index}` })),
      });
      expectProblem(many, 422, "validation_failed", [["resource_values", "too_many"]]);
      expect(await harness.database.prisma.buyerProduct.count()).toBe(1);
    });
  });

  describe("GET /orders", () => {
    it.each([
      ["limit=0", "limit", "out_of_range"],
      ["limit=501", "limit", "out_of_range"],
      ["limit=abc", "limit", "invalid"],
      ["limit=-1", "limit", "invalid"],
      ["limit=10.5", "limit", "invalid"],
      ["limit=", "limit", "invalid"],
      ["cursor=not-a-cursor!", "cursor", "invalid"],
      [`cursor=${Buffer.from("hello|world").toString("base64url")}`, "cursor", "invalid"],
      ["cursor=", "cursor", "invalid"],
      [`cursor=${cursorAt("0000-01-01T00:00:00.000Z")}`, "cursor", "invalid"],
      [`cursor=${cursorAt("+010000-01-01T00:00:00.000Z")}`, "cursor", "invalid"],
      [`cursor=${cursorAt("2025-01-01T00:00:00Z")}`, "cursor", "invalid"],
      ["created_at_from=2025-13-01", "created_at_from", "invalid"],
      ["created_at_from=2025-02-30", "created_at_from", "invalid"],
      ["created_at_from=yesterday", "created_at_from", "invalid"],
      ["created_at_from=2025-01-01T00:00:00Z", "created_at_from", "invalid"],
      ["created_at_to=2025-1-5", "created_at_to", "invalid"],
      ["created_at_from=0000-01-01", "created_at_from", "invalid"],
      ["created_at_to=0000-12-31", "created_at_to", "invalid"],
      ["created_at_from=2025-03-02&created_at_to=2025-03-01", "created_at_from", "invalid"],
      ["order_status[]=bogus", "order_status[0]", "invalid"],
      ["order_status[]=quote_selected&order_status[]=Delivered", "order_status[1]", "invalid"],
      ["order_status=quote_selected,lost", "order_status[1]", "invalid"],
    ])("?%s is 422 on %s", async (query, field, code) => {
      const response = await api("GET", `/orders?${query}`);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
    });

    it("names every bad parameter of a kind at once", async () => {
      const types = await api("GET", "/orders?limit=abc&order_status=nope&created_at_to=never");
      expectProblem(types, 422, "validation_failed", [
        ["limit", "invalid"],
        ["order_status[0]", "invalid"],
        ["created_at_to", "invalid"],
      ]);
      const values = await api(
        "GET",
        "/orders?limit=0&cursor=zzz&created_at_from=2025-02-01&created_at_to=2025-01-01",
      );
      expectProblem(values, 422, "validation_failed", [
        ["limit", "out_of_range"],
        ["cursor", "invalid"],
        ["created_at_from", "invalid"],
      ]);
    });

    it("explains a from after to without GraphQL names", async () => {
      const response = await api("GET", "/orders?created_at_from=2025-03-02&created_at_to=2025-03-01");
      const problem = expectProblem(response, 422, "validation_failed", [["created_at_from", "invalid"]]);
      expect(problem.detail).toMatch(/^created_at_from /);
      expect(problem.detail).not.toMatch(/createdAt|filter/);
      expect(problem.errors?.[0]?.message).not.toMatch(/createdAt|filter/);
    });

    it("accepts the first and last days of four-digit years", async () => {
      const response = await api("GET", "/orders?created_at_from=0001-01-01&created_at_to=9999-12-31");
      expect(response.status).toBe(200);
      expect(idsOf(response)).toEqual([orderId]);
    });

    it("the same day for from and to is fine", async () => {
      const response = await api("GET", "/orders?created_at_from=2025-01-01&created_at_to=2025-01-01");
      expect(response.status).toBe(200);
      expect(idsOf(response)).toEqual([orderId]);
    });
  });

  describe("GET /buyer_product_approvals", () => {
    it.each([
      ["limit=0", "limit", "out_of_range"],
      ["limit=501", "limit", "out_of_range"],
      ["limit=abc", "limit", "invalid"],
      ["cursor=bogus", "cursor", "invalid"],
      [`cursor=${cursorAt("0000-12-31T23:59:59.999Z")}`, "cursor", "invalid"],
      ["approval_status[]=rejected", "approval_status[0]", "invalid"],
      ["approval_status=approved,Approved", "approval_status[1]", "invalid"],
      ["buyer_product_id=not-a-uuid", "buyer_product_id", "invalid"],
    ])("?%s is 422 on %s", async (query, field, code) => {
      const response = await api("GET", `/buyer_product_approvals?${query}`);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
    });
  });

  describe("PATCH /orders/{id}", () => {
    const path = () => `/orders/${orderId}`;

    it.each([
      [{ order_status: "lost" }, "order_status", "invalid"],
      [{ order_status: "Delivered" }, "order_status", "invalid"],
      [{ order_status: null }, "order_status", "invalid"],
      [{ order_status: 3 }, "order_status", "invalid"],
      [{ placed_at: "yesterday" }, "placed_at", "invalid"],
      [{ placed_at: "2025-02-30T00:00:00.000Z" }, "placed_at", "invalid"],
      [{ placed_at: null }, "placed_at", "invalid"],
      [{ placed_at: "0000-06-01T00:00:00.000Z" }, "placed_at", "invalid"],
      [{ placed_at: "0001-01-01T00:30:00+01:00" }, "placed_at", "invalid"],
      [{ placed_at: "9999-12-31T23:30:00-01:00" }, "placed_at", "invalid"],
      [{ placed_at: "2025-01-01T00:00:00" }, "placed_at", "invalid"],
      [{ purchase_order_reference: "PO\u0000" }, "purchase_order_reference", "invalid"],
      [
        { resource_values: [{ provider: "erp\u0000", value: "x" }] },
        "resource_values[0].provider",
        "invalid",
      ],
      [{ purchase_order_reference: LONG }, "purchase_order_reference", "too_long"],
      [{ supplier_order_reference: LONG }, "supplier_order_reference", "too_long"],
      [{ purchase_order_reference: 12 }, "purchase_order_reference", "invalid"],
      [{ resource_values: null }, "resource_values", "invalid"],
      [{ resource_values: "erp" }, "resource_values", "invalid"],
      [{ resource_values: [{ provider: "erp", value: "" }] }, "resource_values[0].value", "required"],
      [{ resource_values: [{ value: "x" }] }, "resource_values[0].provider", "required"],
      [{ resource_values: [{ provider: "erp", value: "x" }, null] }, "resource_values[1]", "required"],
    ])("%j is 422 on %s and changes nothing", async (body, field, code) => {
      const response = await api("PATCH", path(), body);
      expectProblem(response, 422, "validation_failed", [[field, code]]);
      const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({ orderStatus: "quote_selected", purchaseOrderReference: "PO-KEEP" });
      expect(await harness.database.prisma.orderEvent.count()).toBe(0);
    });

    it("an unknown order is 404 even with a valid body", async () => {
      const response = await api("PATCH", `/orders/${UNKNOWN_ID}`, { purchase_order_reference: "x" });
      expectProblem(response, 404, "not_found");
    });
  });
});
