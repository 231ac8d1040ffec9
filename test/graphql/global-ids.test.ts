// Global IDs as Relay and Apollo clients use them: `Node.id` for caches and
// refetching, `databaseId` for the UUID, node/nodes within the buyer's own
// records, and id arguments that take either form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL, graphql, graphqlData } from "./helpers.js";

const globalId = (type: string, uuid: string) => Buffer.from(`${type}:${uuid}`).toString("base64");

describe("global IDs", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderIds: string[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Nodes");
    other = await seedBuyer(harness.database, "Others");
    orderIds = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 60 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, index)) })),
    );
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("gives each Node an opaque global id and its UUID as databaseId", async () => {
    const [orderId = ""] = orderIds;
    const data = await graphqlData<{
      order: {
        id: string;
        databaseId: string;
        supplier: { id: string; databaseId: string };
        approval: { id: string; databaseId: string; buyerProduct: { id: string; databaseId: string } };
      };
    }>(
      harness.app,
      `query ($id: UUID!) { order(id: $id) {
        id databaseId
        supplier { id databaseId }
        approval { id databaseId buyerProduct { id databaseId } }
      } }`,
      { key: buyer.apiKey, variables: { id: orderId } },
    );
    expect(data.order).toEqual({
      id: globalId("Order", orderId),
      databaseId: orderId,
      supplier: { id: globalId("Supplier", buyer.supplierId), databaseId: buyer.supplierId },
      approval: {
        id: globalId("BuyerProductApproval", buyer.approvalId),
        databaseId: buyer.approvalId,
        buyerProduct: {
          id: globalId("BuyerProduct", buyer.buyerProductId),
          databaseId: buyer.buyerProductId,
        },
      },
    });
  });

  describe("node and nodes", () => {
    const NODES = `query ($ids: [ID!]!) {
      nodes(ids: $ids) {
        __typename id
        ... on Order { databaseId orderStatus }
        ... on BuyerProduct { rawMaterialName }
        ... on Supplier { name }
      }
    }`;

    it("fetch the buyer's records by global id, whatever their type, and null for anyone else's", async () => {
      const [orderId = ""] = orderIds;
      const single = await graphqlData<{ node: Record<string, unknown> | null }>(
        harness.app,
        `query ($id: ID!) { node(id: $id) { __typename id ... on Order { databaseId } } }`,
        { key: buyer.apiKey, variables: { id: globalId("Order", orderId) } },
      );
      expect(single.node).toEqual({
        __typename: "Order",
        id: globalId("Order", orderId),
        databaseId: orderId,
      });

      const data = await graphqlData<{ nodes: (Record<string, unknown> | null)[] }>(harness.app, NODES, {
        key: buyer.apiKey,
        variables: {
          ids: [
            globalId("BuyerProduct", buyer.buyerProductId),
            globalId("Order", orderId),
            globalId("BuyerProduct", other.buyerProductId),
            globalId("Supplier", buyer.supplierId),
            globalId("Supplier", other.supplierId),
            globalId("Order", "00000000-0000-4000-8000-000000000000"),
          ],
        },
      });
      expect(data.nodes).toEqual([
        {
          __typename: "BuyerProduct",
          id: globalId("BuyerProduct", buyer.buyerProductId),
          rawMaterialName: "Glycerine USP",
        },
        {
          __typename: "Order",
          id: globalId("Order", orderId),
          databaseId: orderId,
          orderStatus: "QUOTE_SELECTED",
        },
        null,
        { __typename: "Supplier", id: globalId("Supplier", buyer.supplierId), name: "Nodes Supplier" },
        null,
        null,
      ]);
      const theirs = await graphqlData<{ node: unknown }>(
        harness.app,
        `query ($id: ID!) { node(id: $id) { id } }`,
        {
          key: other.apiKey,
          variables: { id: globalId("Order", orderId) },
        },
      );
      expect(theirs.node).toBeNull();
    });

    it("load 50 ids with as many statements as 5", async () => {
      const statements = async (count: number) => {
        const ids = orderIds.slice(0, count).map((id) => globalId("Order", id));
        ids.push(globalId("BuyerProduct", buyer.buyerProductId));
        harness.resetQueries();
        const data = await graphqlData<{ nodes: unknown[] }>(harness.app, NODES, {
          key: buyer.apiKey,
          variables: { ids },
        });
        expect(data.nodes.filter(Boolean)).toHaveLength(count + 1);
        // The statements that read records, planned or executed (not the key check, nor transaction control).
        return harness.queries.filter((sql) =>
          /^SELECT .* FROM (?:"public"\.)?"(orders|buyer_products)"/s.test(sql),
        ).length;
      };
      // One per type asked for, whatever the number of ids.
      expect(await statements(5)).toBe(2);
      expect(await statements(50)).toBe(2);
    });

    it("refuse what is not a global id, and more than 100 ids, with VALIDATION_FAILED", async () => {
      const bad = await graphql(harness.app, NODES, {
        key: buyer.apiKey,
        variables: { ids: [globalId("Order", orderIds[0] ?? ""), orderIds[0], "T3JkZXI6eA=="] },
      });
      expect(bad.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [
          { path: ["ids", 1], code: "invalid" },
          { path: ["ids", 2], code: "invalid" },
        ],
      });
      const many = await graphql(harness.app, NODES, {
        key: buyer.apiKey,
        variables: { ids: Array.from({ length: 101 }, () => globalId("Order", orderIds[0] ?? "")) },
      });
      expect(many.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["ids"], code: "too_many" }],
      });
    });
  });

  describe("id arguments", () => {
    it("take a global id of the type they name as well as the UUID", async () => {
      const [, orderId = ""] = orderIds;
      const read = await graphqlData<{ order: { databaseId: string } }>(
        harness.app,
        `query ($id: UUID!) { order(id: $id) { databaseId } }`,
        { key: buyer.apiKey, variables: { id: globalId("Order", orderId) } },
      );
      expect(read.order.databaseId).toBe(orderId);

      const approval = await graphqlData<{ buyerProductApproval: { databaseId: string } | null }>(
        harness.app,
        `query ($id: UUID!) { buyerProductApproval(id: $id) { databaseId } }`,
        { key: buyer.apiKey, variables: { id: globalId("BuyerProductApproval", buyer.approvalId) } },
      );
      expect(approval.buyerProductApproval?.databaseId).toBe(buyer.approvalId);

      const updated = await graphqlData<{ updateOrder: { purchaseOrderReference: string } }>(
        harness.app,
        `mutation { updateOrder(id: "${globalId("Order", orderId)}", input: { purchaseOrderReference: "PO-G" }) {
          purchaseOrderReference
        } }`,
        { key: buyer.apiKey },
      );
      expect(updated.updateOrder.purchaseOrderReference).toBe("PO-G");

      const approvals = await graphqlData<{ buyerProductApprovals: { totalCount: number } }>(
        harness.app,
        `query ($id: UUID) { buyerProductApprovals(filter: { buyerProductId: $id }) { totalCount } }`,
        { key: buyer.apiKey, variables: { id: globalId("BuyerProduct", buyer.buyerProductId) } },
      );
      expect(approvals.buyerProductApprovals.totalCount).toBe(1);

      const searched = await graphqlData<{ orders: { totalCount: number } }>(
        harness.app,
        `query ($query: String) { orders(query: $query) { totalCount } }`,
        { key: buyer.apiKey, variables: { query: `supplier:${globalId("Supplier", buyer.supplierId)}` } },
      );
      expect(searched.orders.totalCount).toBe(orderIds.length);

      const tagged = await graphqlData<{ attachTags: { taggableType: string; taggableId: string } }>(
        harness.app,
        `mutation ($input: AttachTagsInput!) { attachTags(input: $input) { taggableType taggableId } }`,
        {
          key: buyer.apiKey,
          variables: {
            input: {
              taggableId: globalId("BuyerProductApproval", buyer.approvalId),
              tagIds: [buyer.tagIds[0]],
            },
          },
        },
      );
      expect(tagged.attachTags).toEqual({
        taggableType: "BuyerProductApproval",
        taggableId: buyer.approvalId,
      });

      const user = await graphqlData<{ createSupplierUser: { supplierProfileId: string } }>(
        harness.app,
        `mutation ($input: CreateSupplierUserInput!) { createSupplierUser(input: $input) { supplierProfileId } }`,
        {
          key: buyer.apiKey,
          variables: {
            input: {
              supplierId: globalId("Supplier", buyer.supplierId),
              firstName: "Gia",
              lastName: "Lobal",
              contactEmail: "gia@nodes.test",
            },
          },
        },
      );
      expect(user.createSupplierUser.supplierProfileId).toBe(buyer.supplierId);
    });

    it("refuse a global id of another type with VALIDATION_FAILED naming the field, and change nothing", async () => {
      const [, , orderId = ""] = orderIds;
      const wrong = await graphql(
        harness.app,
        `mutation ($id: UUID!) { updateOrder(id: $id, input: { purchaseOrderReference: "PO-X" }) { databaseId } }`,
        { key: buyer.apiKey, variables: { id: globalId("BuyerProduct", orderId) } },
      );
      expect(wrong.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [
          {
            path: ["id"],
            code: "invalid",
            message: "must name an Order; this is the global ID of a BuyerProduct",
          },
        ],
      });
      const order = await harness.database.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order.purchaseOrderReference).toBeNull();

      const tags = await graphql(
        harness.app,
        `mutation ($input: AttachTagsInput!) { attachTags(input: $input) { taggableId } }`,
        {
          key: buyer.apiKey,
          variables: {
            input: {
              taggableId: globalId("Supplier", buyer.supplierId),
              tagIds: [globalId("Order", orderId)],
            },
          },
        },
      );
      expect(tags.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [
          { path: ["input", "taggableId"], code: "invalid" },
          {
            path: ["input", "tagIds", 0],
            code: "invalid",
            message: "takes a raw UUID; this is the global ID of an Order",
          },
        ],
      });
    });

    it("apply to subscriptions too: orderUpdated(orderId) checks a global id before subscribing", async () => {
      const firstEvent = async (orderId: string) => {
        const response = await harness.app.fetch(GRAPHQL, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            "x-api-key": buyer.apiKey,
          },
          body: JSON.stringify({
            query: "subscription ($id: UUID) { orderUpdated(orderId: $id) { order { databaseId } } }",
            variables: { id: orderId },
          }),
        });
        const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        while (reader && !/\n\n/.test(text.replace(/^:.*\n\n/gm, ""))) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        await reader?.cancel().catch(() => {});
        const data = /^data: (.*)$/m.exec(text)?.[1] ?? "{}";
        return JSON.parse(data) as { errors?: { extensions?: { code?: string } }[] };
      };
      expect((await firstEvent(globalId("Order", other.buyerProductId))).errors?.[0]?.extensions?.code).toBe(
        "NOT_FOUND",
      );
      expect((await firstEvent(globalId("Supplier", buyer.supplierId))).errors?.[0]?.extensions?.code).toBe(
        "VALIDATION_FAILED",
      );
    });

    it("still refuse what is neither a UUID nor a global id as a bad variable", async () => {
      const response = await graphql(harness.app, `query ($id: UUID!) { order(id: $id) { id } }`, {
        key: buyer.apiKey,
        variables: { id: "not-an-id" },
      });
      expect(response.status).toBe(400);
      expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    });
  });
});
