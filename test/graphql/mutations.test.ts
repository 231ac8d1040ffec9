// The writes through GraphQL: the four REST operations (same resolvers, so
// the same checks and codes as REST) and detachTags.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData } from "./helpers.js";

describe("GraphQL mutations", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Writer");
    other = await seedBuyer(harness.database, "Other");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 0, 1)) },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
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
