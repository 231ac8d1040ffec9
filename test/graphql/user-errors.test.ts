// Typed mutation errors: each mutation has a twin whose payload carries the
// refusals as `userErrors` (code, field path, field code, message), so that a
// form can show each next to its field from generated types.
import { getNamedType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { graphql } from "./helpers.js";

interface UserError {
  code: string;
  field: string[] | null;
  fieldCode: string | null;
  message: string;
  allowedStatuses?: string[] | null;
}

const USER_ERRORS = "userErrors { code field fieldCode message }";
const globalId = (type: string, uuid: string) => Buffer.from(`${type}:${uuid}`).toString("base64");

describe("mutations with userErrors", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Typed");
    other = await seedBuyer(harness.database, "Stranger");
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** A call that must answer HTTP 200 without top-level errors; returns the mutation's payload. */
  async function payload<Payload>(query: string, variables: Record<string, unknown>, key = buyer.apiKey) {
    const response = await graphql<Record<string, Payload>>(harness.app, query, { key, variables });
    expect(response.errors).toBeUndefined();
    expect(response.status).toBe(200);
    const [value] = Object.values(response.data ?? {});
    return value as Payload;
  }

  it("exist for every mutation: each original has a twin whose payload has userErrors", () => {
    const fields = schema.getMutationType()?.getFields() ?? {};
    const withUserErrors = Object.values(fields)
      .filter((field) => {
        const type = getNamedType(field.type);
        return isObjectType(type) && "userErrors" in type.getFields();
      })
      .map((field) => field.name)
      .sort();
    expect(withUserErrors).toEqual([
      "buyerProductCreate",
      "eventRedeliver",
      "orderUpdate",
      "supplierUserCreate",
      "tagsAttach",
      "tagsDetach",
      "webhookEndpointCreate",
      "webhookEndpointDelete",
      "webhookEndpointSecretRotate",
      "webhookEndpointUpdate",
    ]);
    expect(Object.keys(fields).length).toBe(withUserErrors.length * 2);
  });

  describe("orderUpdate", () => {
    const UPDATE = `mutation ($id: UUID!, $input: UpdateOrderInput!) {
      orderUpdate(id: $id, input: $input) {
        order { databaseId orderStatus purchaseOrderReference }
        userErrors { code field fieldCode message allowedStatuses }
      }
    }`;
    type Payload = { order: Record<string, unknown> | null; userErrors: UserError[] };
    let orderId: string;

    beforeAll(async () => {
      [orderId = ""] = await seedOrders(harness.database, buyer, [
        { createdAt: new Date(Date.UTC(2025, 0, 1)), orderStatus: "shipped", purchaseOrderReference: "PO-1" },
      ]);
    });

    it("answers the order and no userErrors when it is made", async () => {
      const result = await payload<Payload>(UPDATE, {
        id: orderId,
        input: { purchaseOrderReference: "PO-2" },
      });
      expect(result).toEqual({
        order: { databaseId: orderId, orderStatus: "SHIPPED", purchaseOrderReference: "PO-2" },
        userErrors: [],
      });
    });

    it("answers each refusal with its code and field, a null order, and changes nothing", async () => {
      const blank = await payload<Payload>(UPDATE, {
        id: orderId,
        input: { purchaseOrderReference: " ", resourceValues: [{ provider: "erp", value: "" }] },
      });
      expect(blank).toEqual({
        order: null,
        userErrors: [
          {
            code: "VALIDATION_FAILED",
            field: ["input", "purchaseOrderReference"],
            fieldCode: "REQUIRED",
            message: "must not be blank",
            allowedStatuses: null,
          },
          {
            code: "VALIDATION_FAILED",
            field: ["input", "resourceValues", "0", "value"],
            fieldCode: "REQUIRED",
            message: expect.any(String),
            allowedStatuses: null,
          },
        ],
      });
      const backward = await payload<Payload>(UPDATE, {
        id: orderId,
        input: { orderStatus: "ORDER_PLACED" },
      });
      expect(backward.userErrors).toEqual([
        {
          code: "INVALID_TRANSITION",
          field: ["input", "orderStatus"],
          fieldCode: null,
          message: expect.stringContaining("cannot move from SHIPPED to ORDER_PLACED"),
          allowedStatuses: ["IN_TRANSIT", "IN_WAREHOUSE", "IN_PORT", "DELIVERED"],
        },
      ]);
      const foreign = await payload<Payload>(
        UPDATE,
        { id: orderId, input: { orderStatus: "DELIVERED" } },
        other.apiKey,
      );
      expect(foreign.userErrors).toMatchObject([{ code: "NOT_FOUND", field: ["id"], fieldCode: null }]);
      const wrongType = await payload<Payload>(UPDATE, {
        id: globalId("Supplier", buyer.supplierId),
        input: { orderStatus: "DELIVERED" },
      });
      expect(wrongType.userErrors).toMatchObject([
        { code: "VALIDATION_FAILED", field: ["id"], fieldCode: "INVALID" },
      ]);

      const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order).toMatchObject({ orderStatus: "shipped", purchaseOrderReference: "PO-2" });
      expect(await harness.database.prisma.orderEvent.count({ where: { orderId } })).toBe(1);
    });

    it("keeps a missing key a top-level UNAUTHENTICATED error (HTTP 401)", async () => {
      const response = await graphql(harness.app, UPDATE, {
        key: null,
        variables: { id: orderId, input: { purchaseOrderReference: "x" } },
      });
      expect(response.status).toBe(401);
      expect(response.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    });
  });

  describe("buyerProductCreate", () => {
    const CREATE = `mutation ($input: CreateBuyerProductInput!) {
      buyerProductCreate(input: $input) { buyerProduct { rawMaterialName } autoMatch { strategy } ${USER_ERRORS} }
    }`;

    it("creates, or answers every bad field at once and creates nothing", async () => {
      const made = await payload<Record<string, unknown>>(CREATE, {
        input: { rawMaterialName: "Glycerin", measurementUnit: "KG", productType: "RAW_MATERIAL" },
      });
      expect(made).toEqual({
        buyerProduct: { rawMaterialName: "Glycerin" },
        autoMatch: { strategy: "name" },
        userErrors: [],
      });
      const before = await harness.database.prisma.buyerProduct.count();
      const refused = await payload<Record<string, unknown>>(CREATE, {
        input: {
          rawMaterialName: "  ",
          measurementUnit: "KG",
          productType: "RAW_MATERIAL",
          annualUsage: -1,
          documentTypes: ["SDS", "SDS"],
        },
      });
      expect(refused).toEqual({
        buyerProduct: null,
        autoMatch: null,
        userErrors: [
          {
            code: "VALIDATION_FAILED",
            field: ["input", "rawMaterialName"],
            fieldCode: "REQUIRED",
            message: "must not be blank",
          },
          {
            code: "VALIDATION_FAILED",
            field: ["input", "annualUsage"],
            fieldCode: "OUT_OF_RANGE",
            message: "must be zero or more",
          },
          {
            code: "VALIDATION_FAILED",
            field: ["input", "documentTypes", "1"],
            fieldCode: "DUPLICATE",
            message: "is listed more than once",
          },
        ],
      });
      expect(await harness.database.prisma.buyerProduct.count()).toBe(before);
    });
  });

  describe("supplierUserCreate", () => {
    const CREATE = `mutation ($input: CreateSupplierUserInput!) {
      supplierUserCreate(input: $input) { supplierUser { databaseId contactEmail } ${USER_ERRORS} }
    }`;
    const input = (supplierId: string, contactEmail: string) => ({
      supplierId,
      firstName: "Kim",
      lastName: "Lee",
      contactEmail,
    });

    it("names the supplier for NOT_FOUND and the email for ALREADY_EXISTS", async () => {
      const made = await payload<{ supplierUser: { contactEmail: string } | null; userErrors: UserError[] }>(
        CREATE,
        {
          input: input(buyer.supplierId, "kim@typed.test"),
        },
      );
      expect(made.supplierUser?.contactEmail).toBe("kim@typed.test");
      expect(made.userErrors).toEqual([]);
      const again = await payload<{ supplierUser: null; userErrors: UserError[] }>(CREATE, {
        input: input(buyer.supplierId, "KIM@typed.test"),
      });
      expect(again).toEqual({
        supplierUser: null,
        userErrors: [
          {
            code: "ALREADY_EXISTS",
            field: ["input", "contactEmail"],
            fieldCode: null,
            message: expect.any(String),
          },
        ],
      });
      const unconnected = await payload<{ userErrors: UserError[] }>(CREATE, {
        input: input(buyer.unconnectedSupplierId, "kim2@typed.test"),
      });
      expect(unconnected.userErrors).toEqual([
        { code: "NOT_FOUND", field: ["input", "supplierId"], fieldCode: null, message: "Supplier not found" },
      ]);
    });
  });

  describe("tagsAttach and tagsDetach", () => {
    it("answer the tags, or which tag id or record is wrong", async () => {
      const [tag = ""] = buyer.tagIds;
      const attached = await payload<Record<string, unknown>>(
        `mutation ($input: AttachTagsInput!) { tagsAttach(input: $input) { result { addedTagIds } ${USER_ERRORS} } }`,
        { input: { taggableId: buyer.buyerProductId, tagIds: [tag] } },
      );
      expect(attached).toEqual({ result: { addedTagIds: [tag] }, userErrors: [] });
      const detached = await payload<Record<string, unknown>>(
        `mutation ($input: DetachTagsInput!) { tagsDetach(input: $input) { result { removedTagIds } ${USER_ERRORS} } }`,
        { input: { taggableId: buyer.buyerProductId, tagIds: [tag, other.tagIds[0]] } },
      );
      expect(detached).toEqual({
        result: null,
        userErrors: [
          {
            code: "VALIDATION_FAILED",
            field: ["input", "tagIds", "1"],
            fieldCode: "NOT_FOUND",
            message: "is not one of the buyer's tags",
          },
        ],
      });
      const foreign = await payload<Record<string, unknown>>(
        `mutation ($input: DetachTagsInput!) { tagsDetach(input: $input) { result { removedTagIds } ${USER_ERRORS} } }`,
        { input: { taggableId: other.buyerProductId, tagIds: [tag] } },
      );
      expect(foreign).toEqual({
        result: null,
        userErrors: [
          {
            code: "NOT_FOUND",
            field: ["input", "taggableId"],
            fieldCode: null,
            message: "Taggable record not found",
          },
        ],
      });
    });
  });
});
