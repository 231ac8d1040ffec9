// The writes through GraphQL: the four REST operations (same resolvers, so
// the same checks and codes as REST) and detachTags; the order statuses a
// client can move to and the updateOrder inputs a generated client sends; the
// twins whose payload carries refusals as `userErrors`.

import { getNamedType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

describe("GraphQL mutations", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Writer");
    other = await seedBuyer(harness.database, "Other");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 0, 1)) },
    ]);
  });

  describe("createSupplierUser", () => {
    const create = `mutation ($input: CreateSupplierUserInput!) {
      createSupplierUser(input: $input) { id firstName lastName contactEmail supplierProfileId tags { id } }
    }`;

    it("creates a user under a connected supplier, trimmed", async () => {
      const data = await graphqlData<{ createSupplierUser: Record<string, unknown> }>(harness.app, create, {
        key: buyer.apiKey,
        variables: {
          input: {
            supplierId: buyer.supplierId,
            firstName: " Ada ",
            lastName: "Byron",
            contactEmail: "ada@x.test",
          },
        },
      });
      expect(data.createSupplierUser).toEqual({
        id: expect.any(String),
        firstName: "Ada",
        lastName: "Byron",
        contactEmail: "ada@x.test",
        supplierProfileId: buyer.supplierId,
        tags: [],
      });
    });

    it("refuses the same bad input exactly as REST does, field by field", async () => {
      const response = await graphql(harness.app, create, {
        key: buyer.apiKey,
        variables: {
          input: {
            supplierId: buyer.supplierId,
            firstName: "  ",
            lastName: "x".repeat(256),
            contactEmail: "nope",
          },
        },
      });
      const rest = await callApi(harness.app, "POST", `/suppliers/${buyer.supplierId}/users`, {
        key: buyer.apiKey,
        body: { first_name: "  ", last_name: "x".repeat(256), contact_email: "nope" },
      });
      expect(rest.status).toBe(422);
      const [error] = response.errors ?? [];
      expect(error?.extensions?.code).toBe("VALIDATION_FAILED");
      const fieldErrors = (error?.extensions?.fieldErrors ?? []) as { path: string[]; code: string }[];
      const graphqlProblems = fieldErrors.map((problem) => [problem.path.join("."), problem.code]);
      const restProblems = (rest.body as { errors: { field: string; code: string }[] }).errors.map(
        (problem) => [problem.field, problem.code],
      );
      expect(graphqlProblems).toEqual([
        ["input.firstName", "required"],
        ["input.lastName", "too_long"],
        ["input.contactEmail", "invalid"],
      ]);
      expect(restProblems).toEqual([
        ["first_name", "required"],
        ["last_name", "too_long"],
        ["contact_email", "invalid"],
      ]);
    });

    it("answers NOT_FOUND for a supplier the buyer is not connected to, and ALREADY_EXISTS for a repeated email", async () => {
      const stranger = await graphql(harness.app, create, {
        key: buyer.apiKey,
        variables: {
          input: {
            supplierId: buyer.unconnectedSupplierId,
            firstName: "A",
            lastName: "B",
            contactEmail: "a@b.test",
          },
        },
      });
      expect(stranger.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const again = await graphql(harness.app, create, {
        key: buyer.apiKey,
        variables: {
          input: {
            supplierId: buyer.supplierId,
            firstName: "Ada",
            lastName: "B",
            contactEmail: "ADA@X.TEST",
          },
        },
      });
      expect(again.errors?.[0]?.extensions?.code).toBe("ALREADY_EXISTS");
    });
  });

  describe("attachTags and detachTags", () => {
    const attach = `mutation ($input: AttachTagsInput!) {
      attachTags(input: $input) { taggableType addedTagIds tags { id } }
    }`;
    const detach = `mutation ($input: DetachTagsInput!) {
      detachTags(input: $input) { taggableType taggableId removedTagIds tags { id name } }
    }`;

    it("removes only the tags that were on the record and shows what is left", async () => {
      const [first = "", second = "", third = ""] = buyer.tagIds;
      await graphqlData(harness.app, attach, {
        key: buyer.apiKey,
        variables: { input: { taggableId: orderId, tagIds: [first, second] } },
      });
      const data = await graphqlData<{ detachTags: Record<string, unknown> }>(harness.app, detach, {
        key: buyer.apiKey,
        variables: { input: { taggableId: orderId, tagIds: [second, third, second] } },
      });
      expect(data.detachTags).toEqual({
        taggableType: "Order",
        taggableId: orderId,
        removedTagIds: [second],
        tags: [{ id: first, name: "Tag 0" }],
      });
      const order = await graphqlData<{ order: { tags: { id: string }[] } }>(
        harness.app,
        `query ($id: UUID!) { order(id: $id) { tags { id } } }`,
        { key: buyer.apiKey, variables: { id: orderId } },
      );
      expect(order.order.tags).toEqual([{ id: first }]);
    });

    it("is refused like attachTags: no tags, another buyer's tag, another buyer's record", async () => {
      const empty = await graphql(harness.app, detach, {
        key: buyer.apiKey,
        variables: { input: { taggableId: orderId, tagIds: [] } },
      });
      expect(empty.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["input", "tagIds"], code: "required" }],
      });
      const foreignTag = await graphql(harness.app, detach, {
        key: buyer.apiKey,
        variables: { input: { taggableId: orderId, tagIds: [buyer.tagIds[0], other.tagIds[0]] } },
      });
      expect(foreignTag.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["input", "tagIds", 1], code: "not_found" }],
      });
      const foreignRecord = await graphql(harness.app, detach, {
        key: buyer.apiKey,
        variables: { input: { taggableId: other.buyerProductId, tagIds: [buyer.tagIds[0]] } },
      });
      expect(foreignRecord.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      // Nothing was removed by the refused calls.
      const order = await graphqlData<{ order: { tags: { id: string }[] } }>(
        harness.app,
        `query ($id: UUID!) { order(id: $id) { tags { id } } }`,
        { key: buyer.apiKey, variables: { id: orderId } },
      );
      expect(order.order.tags).toEqual([{ id: buyer.tagIds[0] }]);
    });
  });

  describe("updateOrder", () => {
    const update = `mutation ($id: UUID!, $input: UpdateOrderInput!) {
      updateOrder(id: $id, input: $input) { id orderStatus placedAt events { totalCount } }
    }`;

    it("moves an order forward and records the change", async () => {
      const data = await graphqlData<{
        updateOrder: { orderStatus: string; placedAt: string | null; events: { totalCount: number } };
      }>(harness.app, update, {
        key: buyer.apiKey,
        variables: { id: orderId, input: { orderStatus: "ORDER_CONFIRMED" } },
      });
      expect(data.updateOrder).toMatchObject({
        orderStatus: "ORDER_CONFIRMED",
        placedAt: expect.any(String),
        events: { totalCount: 1 },
      });
    });

    it("refuses a backward move with INVALID_TRANSITION naming the allowed statuses, and another buyer's order with NOT_FOUND", async () => {
      const backward = await graphql(harness.app, update, {
        key: buyer.apiKey,
        variables: { id: orderId, input: { orderStatus: "QUOTE_SELECTED" } },
      });
      expect(backward.errors?.[0]?.extensions).toMatchObject({
        code: "INVALID_TRANSITION",
        allowedStatuses: expect.arrayContaining(["SHIPPED", "DELIVERED"]),
      });
      const foreign = await graphql(harness.app, update, {
        key: other.apiKey,
        variables: { id: orderId, input: { orderStatus: "DELIVERED" } },
      });
      expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    });
  });

  describe("createBuyerProduct", () => {
    it("creates a buyer product matched to the catalogue and links it to its catalogue product", async () => {
      const data = await graphqlData<{
        createBuyerProduct: {
          autoMatch: { matched: boolean; strategy: string };
          buyerProduct: { rawMaterialName: string; product: { id: string; name: string } };
        };
      }>(
        harness.app,
        `mutation ($input: CreateBuyerProductInput!) {
          createBuyerProduct(input: $input) {
            autoMatch { matched strategy }
            buyerProduct { rawMaterialName product { id name } }
          }
        }`,
        {
          key: buyer.apiKey,
          variables: {
            input: {
              rawMaterialName: "Glycerol 99.5% (CAS 56-81-5)",
              measurementUnit: "KG",
              productType: "RAW_MATERIAL",
            },
          },
        },
      );
      expect(data.createBuyerProduct).toEqual({
        autoMatch: { matched: true, strategy: "cas_number" },
        buyerProduct: {
          rawMaterialName: "Glycerol 99.5% (CAS 56-81-5)",
          product: { id: buyer.productId, name: "Glycerin" },
        },
      });
    });
  });
});

// Order statuses a client can move to, and the updateOrder inputs a generated
// client sends: names it can pass back, blank references, explicit nulls.
const UPDATE = `mutation ($id: UUID!, $input: UpdateOrderInput!) {
  updateOrder(id: $id, input: $input) {
    orderStatus placedAt purchaseOrderReference resourceValues { provider value }
  }
}`;

describe("updateOrder inputs and Order.allowedNextStatuses", () => {
  let buyer: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Statuses");
  });

  const newOrder = async (orderStatus: "quote_selected" | "shipped" | "delivered" = "quote_selected") => {
    const [id = ""] = await seedOrders(harness.database, buyer, [
      {
        createdAt: new Date(Date.UTC(2025, 0, 1)),
        orderStatus,
        purchaseOrderReference: "PO-KEEP",
        resourceValues: [{ provider: "erp", value: "E-1" }],
      },
    ]);
    return id;
  };
  const eventCount = (orderId: string) => harness.database.prisma.orderEvent.count({ where: { orderId } });

  it("lists the statuses an order may move to next, in GraphQL's names, and none once delivered", async () => {
    const [fresh, shipped, delivered] = [
      await newOrder(),
      await newOrder("shipped"),
      await newOrder("delivered"),
    ];
    const read = async (id: string) =>
      (
        await graphqlData<{ order: { allowedNextStatuses: string[] } }>(
          harness.app,
          `query ($id: UUID!) { order(id: $id) { allowedNextStatuses } }`,
          { key: buyer.apiKey, variables: { id } },
        )
      ).order.allowedNextStatuses;
    expect(await read(fresh)).toEqual([
      "ORDER_PLACED",
      "ORDER_CONFIRMED",
      "IN_TRANSIT",
      "IN_WAREHOUSE",
      "SHIPPED",
      "IN_PORT",
      "DELIVERED",
    ]);
    expect(await read(shipped)).toEqual(["IN_TRANSIT", "IN_WAREHOUSE", "IN_PORT", "DELIVERED"]);
    expect(await read(delivered)).toEqual([]);
  });

  it("names the allowed statuses of INVALID_TRANSITION as OrderStatus values a client can send back", async () => {
    const id = await newOrder("shipped");
    const refused = await graphql(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: "ORDER_PLACED" } },
    });
    const allowed = refused.errors?.[0]?.extensions?.allowedStatuses as string[];
    expect(refused.errors?.[0]?.extensions?.code).toBe("INVALID_TRANSITION");
    expect(allowed).toEqual(["IN_TRANSIT", "IN_WAREHOUSE", "IN_PORT", "DELIVERED"]);
    // The message and the move refused speak GraphQL's names too.
    expect(refused.errors?.[0]?.message).toBe(
      "An order cannot move from SHIPPED to ORDER_PLACED; allowed next statuses: IN_TRANSIT, IN_WAREHOUSE, IN_PORT, DELIVERED",
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      fromStatus: "SHIPPED",
      toStatus: "ORDER_PLACED",
    });
    // Sent back as they are, each is accepted.
    const moved = await graphqlData<{ updateOrder: { orderStatus: string } }>(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: allowed[0] } },
    });
    expect(moved.updateOrder.orderStatus).toBe("IN_TRANSIT");
  });

  it("keeps the contract's spelling of allowed_statuses in REST", async () => {
    const id = await newOrder("shipped");
    const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
      key: buyer.apiKey,
      body: { order_status: "order_placed" },
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: "invalid_transition",
      detail:
        "An order cannot move from shipped to order_placed; allowed next statuses: in_transit, in_warehouse, in_port, delivered",
      allowed_statuses: ["in_transit", "in_warehouse", "in_port", "delivered"],
    });
  });

  it("refuses a blank purchase or supplier order reference with VALIDATION_FAILED and stores nothing", async () => {
    const id = await newOrder();
    for (const field of ["purchaseOrderReference", "supplierOrderReference"]) {
      const response = await graphql(harness.app, UPDATE, {
        key: buyer.apiKey,
        variables: { id, input: { [field]: "   " } },
      });
      expect(response.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["input", field], code: "required" }],
      });
    }
    const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id } });
    expect(order).toMatchObject({ purchaseOrderReference: "PO-KEEP", supplierOrderReference: null });
    expect(await eventCount(id)).toBe(0);
  });

  it("refuses a blank reference in REST too, with the contract's field name", async () => {
    const id = await newOrder();
    const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
      key: buyer.apiKey,
      body: { purchase_order_reference: "  " },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      errors: [{ field: "purchase_order_reference", code: "required", message: "must not be blank" }],
    });
    expect(await eventCount(id)).toBe(0);
  });

  it("reads null for orderStatus, placedAt and resourceValues as 'unchanged', as the nullable schema says", async () => {
    const id = await newOrder();
    const data = await graphqlData<{ updateOrder: Record<string, unknown> }>(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: {
        id,
        input: { orderStatus: null, placedAt: null, resourceValues: null, purchaseOrderReference: "PO-NEW" },
      },
    });
    expect(data.updateOrder).toMatchObject({
      orderStatus: "QUOTE_SELECTED",
      placedAt: null,
      purchaseOrderReference: "PO-NEW",
      resourceValues: [{ provider: "erp", value: "E-1" }],
    });
    expect(await eventCount(id)).toBe(1);
    // All null: nothing changes, nothing is recorded.
    await graphqlData(harness.app, UPDATE, {
      key: buyer.apiKey,
      variables: { id, input: { orderStatus: null, placedAt: null, resourceValues: null } },
    });
    expect(await eventCount(id)).toBe(1);
  });

  it("still refuses those nulls in REST, whose contract does not allow them", async () => {
    const id = await newOrder();
    for (const field of ["order_status", "placed_at", "resource_values"]) {
      const response = await callApi(harness.app, "PATCH", `/orders/${id}`, {
        key: buyer.apiKey,
        body: { [field]: null },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        detail: `${field} must not be null`,
        errors: [{ field, code: "invalid", message: "must not be null" }],
      });
    }
    expect(await eventCount(id)).toBe(0);
  });
});

// Typed mutation errors: each mutation has a twin whose payload carries the
// refusals as `userErrors` (code, field path, field code, message), so that a
// form can show each next to its field from generated types.
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
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Typed");
    other = await seedBuyer(harness.database, "Stranger");
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
