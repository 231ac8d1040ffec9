// The GraphQL reads a front-end uses: every list a Relay connection scoped to
// the key's buyer, single lookups, the links between records both ways, order
// history, and nested selections answered without a query per record.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSupplier, type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData, nodes, type Page } from "./helpers.js";

const hoursAfter = (hours: number) => new Date(Date.UTC(2025, 2, 1, hours));

describe("GraphQL queries", () => {
  let harness: TestApp;
  let alpha: SeededBuyer;
  let beta: SeededBuyer;
  /** Alpha's orders, newest first by creation time then id. */
  let alphaOrders: string[];
  let betaOrders: string[];
  let secondApprovalId: string;

  beforeAll(async () => {
    harness = await createTestApp();
    const { database } = harness;
    alpha = await seedBuyer(database, "Alpha");
    beta = await seedBuyer(database, "Beta");
    // Two pairs created at the same instant, so the id decides their order.
    const seeds = [0, 1, 2, 2, 3, 4, 4].map((hours, index) => ({
      createdAt: hoursAfter(hours),
      purchaseOrderReference: `PO-${index}`,
    }));
    const ids = await seedOrders(database, alpha, seeds);
    alphaOrders = ids
      .map((id, index) => ({ id, at: seeds[index]?.createdAt.getTime() ?? 0 }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    betaOrders = await seedOrders(database, beta, [
      { createdAt: hoursAfter(1) },
      { createdAt: hoursAfter(5) },
    ]);

    // A second approval of Alpha's buyer product, holding Alpha's two oldest orders.
    secondApprovalId = randomUUID();
    await database.prisma.buyerProductApproval.create({
      data: {
        id: secondApprovalId,
        buyerId: alpha.buyerId,
        buyerProductId: alpha.buyerProductId,
        supplierId: alpha.supplierId,
        approvalStatus: "pending",
        createdAt: new Date(Date.now() + 60_000),
      },
    });
    await database.prisma.order.updateMany({
      where: { id: { in: alphaOrders.slice(-2) } },
      data: { buyerProductApprovalId: secondApprovalId },
    });
    await database.prisma.tagging.createMany({
      data: [
        {
          tagId: alpha.tagIds[1] ?? "",
          taggableType: "Order",
          taggableId: alphaOrders[0] ?? "",
          buyerId: alpha.buyerId,
        },
        {
          tagId: alpha.tagIds[0] ?? "",
          taggableType: "Order",
          taggableId: alphaOrders[0] ?? "",
          buyerId: alpha.buyerId,
        },
        {
          tagId: alpha.tagIds[2] ?? "",
          taggableType: "Order",
          taggableId: alphaOrders[1] ?? "",
          buyerId: alpha.buyerId,
        },
        {
          tagId: alpha.tagIds[0] ?? "",
          taggableType: "BuyerProduct",
          taggableId: alpha.buyerProductId,
          buyerId: alpha.buyerId,
        },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe("orders", () => {
    it("keeps the pinned `orders(first, after)` query: pages newest first, in exactly the order of GET /orders", async () => {
      const rest = await callApi(harness.app, "GET", "/orders", { key: alpha.apiKey });
      const restIds = (rest.body as { id: string }[]).map((order) => order.id);
      expect(restIds).toEqual(alphaOrders);

      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        const data: { orders: Page<{ id: string }> } = await graphqlData(
          harness.app,
          `query Orders($first: Int, $after: String) {
            orders(first: $first, after: $after) {
              edges { node { id: databaseId } }
              pageInfo { hasNextPage endCursor }
            }
          }`,
          { key: alpha.apiKey, variables: { first: 3, after } },
        );
        seen.push(...nodes(data.orders).map((order) => order.id));
        if (!data.orders.pageInfo.hasNextPage) break;
        after = data.orders.pageInfo.endCursor;
      }
      expect(seen).toEqual(restIds);
    });

    it("counts every matching order in totalCount, whatever the page size and filter", async () => {
      const data = await graphqlData<{ all: Page<unknown>; filtered: Page<unknown> }>(
        harness.app,
        `{
          all: orders(first: 2) { totalCount edges { node { id: databaseId } } pageInfo { hasNextPage hasPreviousPage } }
          filtered: orders(filter: { createdAtFrom: "2025-03-01", createdAtTo: "2025-03-01" }, first: 1) {
            totalCount
          }
        }`,
        { key: alpha.apiKey },
      );
      expect(data.all.totalCount).toBe(7);
      expect(data.all.edges).toHaveLength(2);
      expect(data.all.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
      expect(data.filtered.totalCount).toBe(7);
    });

    it("finds one order of the buyer by id, and answers null for another buyer's order", async () => {
      const data = await graphqlData<{ mine: { id: string } | null; theirs: { id: string } | null }>(
        harness.app,
        `query ($mine: UUID!, $theirs: UUID!) {
          mine: order(id: $mine) { id: databaseId purchaseOrderReference }
          theirs: order(id: $theirs) { id: databaseId }
        }`,
        { key: alpha.apiKey, variables: { mine: alphaOrders[0], theirs: betaOrders[0] } },
      );
      expect(data.mine?.id).toBe(alphaOrders[0]);
      expect(data.theirs).toBeNull();
    });

    it("links an order to its approval, buyer product, catalogue product, supplier and tags", async () => {
      const data = await graphqlData<{
        order: {
          approval: { id: string; approvalStatus: string };
          buyerProduct: { id: string; rawMaterialName: string };
          product: { id: string; name: string; casNumber: string; code: string; productType: string };
          supplier: { id: string; name: string; relationship: string };
          tags: { id: string; name: string; tagGroup: { id: string } }[];
        };
      }>(
        harness.app,
        `query ($id: UUID!) {
          order(id: $id) {
            approval { id: databaseId approvalStatus }
            buyerProduct { id: databaseId rawMaterialName }
            product { id name casNumber code productType }
            supplier { id: databaseId name relationship }
            tags { id name tagGroup { id } }
          }
        }`,
        { key: alpha.apiKey, variables: { id: alphaOrders[0] } },
      );
      expect(data.order).toEqual({
        approval: { id: alpha.approvalId, approvalStatus: "APPROVED" },
        buyerProduct: { id: alpha.buyerProductId, rawMaterialName: "Glycerine USP" },
        product: {
          id: alpha.productId,
          name: "Glycerin",
          casNumber: "56-81-5",
          code: "GLY-1",
          productType: "RAW_MATERIAL",
        },
        supplier: { id: alpha.supplierId, name: "Alpha Supplier", relationship: "approved_supplier" },
        // By name: "Tag 0" before "Tag 1".
        tags: [
          { id: alpha.tagIds[0], name: "Tag 0", tagGroup: { id: alpha.tagGroupId } },
          { id: alpha.tagIds[1], name: "Tag 1", tagGroup: { id: alpha.tagGroupId } },
        ],
      });
    });

    it("answers a page of orders with every link in the same number of SQL statements for 2 orders as for 7", async () => {
      const query = `query ($first: Int) {
        orders(first: $first) {
          edges { node {
            id: databaseId url
            approval { id: databaseId buyerProduct { id: databaseId } }
            buyerProduct { id: databaseId rawMaterialName product { name } }
            product { id casNumber }
            supplier { name relationship users { totalCount } }
            deliverySite { siteName address { city } }
            additionalData { product { buyerProductDisplayName } }
            tags { name tagGroup { name } }
            events(first: 5) { totalCount edges { node { id apiKey { prefix } changes { field } } } }
          } }
        }
      }`;
      const statements = async (first: number) => {
        await graphqlData(harness.app, query, { key: alpha.apiKey, variables: { first } });
        harness.resetQueries();
        const data = await graphqlData<{ orders: Page<unknown> }>(harness.app, query, {
          key: alpha.apiKey,
          variables: { first },
        });
        expect(data.orders.edges).toHaveLength(first);
        return harness.queries.length;
      };
      expect(await statements(7)).toBe(await statements(2));
    });
  });

  describe("buyer products and approvals", () => {
    it("lists the buyer's products and links each to its approvals, its orders and its catalogue product", async () => {
      const data = await graphqlData<{
        buyerProducts: Page<{
          id: string;
          product: { id: string };
          tags: { name: string }[];
          approvals: Page<{ id: string; buyerProduct: { id: string } }>;
          orders: Page<{ id: string }>;
        }>;
      }>(
        harness.app,
        `{
          buyerProducts(first: 10) {
            totalCount
            edges { node {
              id: databaseId
              product { id }
              tags { name }
              approvals { totalCount edges { node { id: databaseId buyerProduct { id: databaseId } } } }
              orders { totalCount edges { node { id: databaseId } } }
            } }
          }
        }`,
        { key: alpha.apiKey },
      );
      expect(data.buyerProducts.totalCount).toBe(1);
      const [product] = nodes(data.buyerProducts);
      expect(product?.id).toBe(alpha.buyerProductId);
      expect(product?.product.id).toBe(alpha.productId);
      expect(product?.tags).toEqual([{ name: "Tag 0" }]);
      expect(product?.approvals.totalCount).toBe(2);
      expect(
        nodes(product?.approvals ?? { edges: [], pageInfo: { hasNextPage: false, endCursor: null } }),
      ).toEqual([
        { id: secondApprovalId, buyerProduct: { id: alpha.buyerProductId } },
        { id: alpha.approvalId, buyerProduct: { id: alpha.buyerProductId } },
      ]);
      // Orders under both approvals, merged newest first.
      expect(product?.orders.totalCount).toBe(7);
      expect(product && nodes(product.orders).map((order) => order.id)).toEqual(alphaOrders);
    });

    it("pages a buyer product's orders across its approvals without gaps or repeats", async () => {
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        const data: { buyerProduct: { orders: Page<{ id: string }> } } = await graphqlData(
          harness.app,
          `query ($id: UUID!, $after: String) {
            buyerProduct(id: $id) { orders(first: 2, after: $after) { edges { node { id: databaseId } } pageInfo { hasNextPage endCursor } } }
          }`,
          { key: alpha.apiKey, variables: { id: alpha.buyerProductId, after } },
        );
        seen.push(...nodes(data.buyerProduct.orders).map((order) => order.id));
        if (!data.buyerProduct.orders.pageInfo.hasNextPage) break;
        after = data.buyerProduct.orders.pageInfo.endCursor;
      }
      expect(seen).toEqual(alphaOrders);
    });

    it("links an approval to its buyer product and its orders", async () => {
      const data = await graphqlData<{
        buyerProductApprovals: Page<{
          id: string;
          buyerProduct: { id: string };
          orders: Page<{ id: string }>;
        }>;
      }>(
        harness.app,
        `{
          buyerProductApprovals(filter: { approvalStatus: [PENDING] }) {
            totalCount
            edges { node { id: databaseId buyerProduct { id: databaseId } orders(first: 1) { totalCount edges { node { id: databaseId } } pageInfo { hasNextPage } } } }
          }
        }`,
        { key: alpha.apiKey },
      );
      expect(data.buyerProductApprovals.totalCount).toBe(1);
      const [approval] = nodes(data.buyerProductApprovals);
      expect(approval?.id).toBe(secondApprovalId);
      expect(approval?.buyerProduct.id).toBe(alpha.buyerProductId);
      expect(approval?.orders.totalCount).toBe(2);
      expect(approval && nodes(approval.orders).map((order) => order.id)).toEqual([alphaOrders[5]]);
      expect(approval?.orders.pageInfo.hasNextPage).toBe(true);
    });

    it("finds one buyer product by id, and answers null for another buyer's", async () => {
      const data = await graphqlData<{ mine: { id: string } | null; theirs: { id: string } | null }>(
        harness.app,
        `query ($mine: UUID!, $theirs: UUID!) { mine: buyerProduct(id: $mine) { id: databaseId } theirs: buyerProduct(id: $theirs) { id: databaseId } }`,
        { key: alpha.apiKey, variables: { mine: alpha.buyerProductId, theirs: beta.buyerProductId } },
      );
      expect(data).toEqual({ mine: { id: alpha.buyerProductId }, theirs: null });
    });
  });

  describe("tenancy", () => {
    const listsQuery = `{
      orders { totalCount edges { node { id: databaseId } } }
      buyerProducts { totalCount edges { node { id: databaseId } } }
      buyerProductApprovals { totalCount edges { node { id: databaseId } } }
      tags { totalCount edges { node { id } } }
      tagGroups(first: 10) { totalCount edges { node { id tags { totalCount edges { node { id } } } } } }
      suppliers { totalCount edges { node { id: databaseId } } }
    }`;
    type Lists = Record<
      "orders" | "buyerProducts" | "buyerProductApprovals" | "tags" | "tagGroups" | "suppliers",
      Page<{ id: string; tags?: Page<{ id: string }> }>
    >;
    const ids = (page: Page<{ id: string }>) => nodes(page).map((node) => node.id);

    it("shows each key only its own buyer's records in every list", async () => {
      for (const [buyer, orders, approvals] of [
        [alpha, alphaOrders, [secondApprovalId, alpha.approvalId]],
        [beta, [...betaOrders].reverse(), [beta.approvalId]],
      ] as const) {
        const data = await graphqlData<Lists>(harness.app, listsQuery, { key: buyer.apiKey });
        expect(ids(data.orders)).toEqual(orders);
        expect(data.orders.totalCount).toBe(orders.length);
        expect(ids(data.buyerProducts)).toEqual([buyer.buyerProductId]);
        expect(ids(data.buyerProductApprovals)).toEqual(approvals);
        expect(ids(data.tags).sort()).toEqual([...buyer.tagIds].sort());
        expect(data.tags.totalCount).toBe(3);
        expect(ids(data.tagGroups)).toEqual([buyer.tagGroupId]);
        const [group] = nodes(data.tagGroups);
        expect(group?.tags && ids(group.tags).sort()).toEqual([...buyer.tagIds].sort());
        expect(ids(data.suppliers)).toEqual([buyer.supplierId]);
        expect(data.suppliers.totalCount).toBe(1);
      }
    });

    it("shows a supplier's users created by this buyer only, with the buyer's relationship", async () => {
      await connectSupplier(harness.database, beta, alpha.supplierId, "prospect");
      const create = `mutation ($input: CreateSupplierUserInput!) { createSupplierUser(input: $input) { id: databaseId } }`;
      const mine = await graphqlData<{ createSupplierUser: { id: string } }>(harness.app, create, {
        key: alpha.apiKey,
        variables: {
          input: {
            supplierId: alpha.supplierId,
            firstName: "Ann",
            lastName: "Lee",
            contactEmail: "ann@alpha.test",
          },
        },
      });
      const theirs = await graphqlData<{ createSupplierUser: { id: string } }>(harness.app, create, {
        key: beta.apiKey,
        variables: {
          input: {
            supplierId: alpha.supplierId,
            firstName: "Bo",
            lastName: "Ng",
            contactEmail: "bo@beta.test",
          },
        },
      });
      const query = `{ suppliers(first: 10) { edges { node { id: databaseId relationship users { totalCount edges { node { id: databaseId contactEmail } } } } } } }`;
      const alphaView = await graphqlData<{
        suppliers: Page<{ id: string; relationship: string; users: Page<{ id: string }> }>;
      }>(harness.app, query, { key: alpha.apiKey });
      expect(nodes(alphaView.suppliers)).toEqual([
        {
          id: alpha.supplierId,
          relationship: "approved_supplier",
          users: {
            totalCount: 1,
            edges: [{ node: { id: mine.createSupplierUser.id, contactEmail: "ann@alpha.test" } }],
          },
        },
      ]);
      const betaView = await graphqlData<{
        suppliers: Page<{ id: string; relationship: string; users: Page<{ id: string }> }>;
      }>(harness.app, query, { key: beta.apiKey });
      const shared = nodes(betaView.suppliers).find((supplier) => supplier.id === alpha.supplierId);
      expect(shared?.relationship).toBe("prospect");
      expect(shared && nodes(shared.users).map((user) => user.id)).toEqual([theirs.createSupplierUser.id]);
    });

    it("tells the caller which buyer and key it is", async () => {
      const data = await graphqlData<{
        viewer: { buyer: { id: string; name: string }; apiKey: Record<string, unknown> };
      }>(harness.app, `{ viewer { buyer { id name } apiKey { id prefix name createdAt lastUsedAt } } }`, {
        key: beta.apiKey,
      });
      expect(data.viewer).toEqual({
        buyer: { id: beta.buyerId, name: "Beta" },
        apiKey: {
          id: beta.apiKeyId,
          prefix: beta.apiKey.slice(0, 12),
          name: "test",
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          lastUsedAt: expect.anything(),
        },
      });
    });
  });

  describe("order history", () => {
    it("lists every change made through the API, newest first, with the key that made it and the values before and after", async () => {
      const orderId = betaOrders[0] ?? "";
      const first = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: beta.apiKey,
        body: { order_status: "order_placed", purchase_order_reference: "PO-77" },
      });
      expect(first.status).toBe(200);
      const second = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: beta.apiKey,
        body: { order_status: "shipped", resource_values: [{ provider: "erp", value: "E-1" }] },
      });
      expect(second.status).toBe(200);
      const placedAt = (first.body as { placed_at: string }).placed_at;

      const data = await graphqlData<{
        order: {
          events: Page<{ apiKey: { id: string; prefix: string }; actor: string; changes: unknown[] }>;
        };
      }>(
        harness.app,
        `query ($id: UUID!) {
          order(id: $id) {
            events { totalCount edges { node { createdAt actor apiKey { id prefix } changes { field from to } } } }
          }
        }`,
        { key: beta.apiKey, variables: { id: orderId } },
      );
      expect(data.order.events.totalCount).toBe(2);
      const key = { id: beta.apiKeyId, prefix: beta.apiKey.slice(0, 12) };
      expect(nodes(data.order.events)).toEqual([
        {
          createdAt: expect.any(String),
          actor: `api_key:${beta.apiKeyId}`,
          apiKey: key,
          changes: expect.arrayContaining([
            { field: "orderStatus", from: "ORDER_PLACED", to: "SHIPPED" },
            { field: "resourceValues", from: [], to: [{ provider: "erp", value: "E-1" }] },
          ]),
        },
        {
          createdAt: expect.any(String),
          actor: `api_key:${beta.apiKeyId}`,
          apiKey: key,
          changes: expect.arrayContaining([
            { field: "orderStatus", from: "QUOTE_SELECTED", to: "ORDER_PLACED" },
            { field: "purchaseOrderReference", from: null, to: "PO-77" },
            { field: "placedAt", from: null, to: placedAt },
          ]),
        },
      ]);
      const [newest] = nodes(data.order.events);
      expect(newest?.changes).toHaveLength(2);
    });
  });

  describe("paging arguments", () => {
    it("refuses a page size out of range or a cursor it did not issue, naming the argument", async () => {
      const response = await graphql(harness.app, `{ orders(first: 0) { edges { node { id } } } }`, {
        key: alpha.apiKey,
      });
      expect(response.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["first"], code: "out_of_range" }],
      });
      const nested = await graphql(
        harness.app,
        `query ($id: UUID!) { buyerProduct(id: $id) { id approvals(after: "not-a-cursor") { totalCount } } }`,
        { key: alpha.apiKey, variables: { id: alpha.buyerProductId } },
      );
      expect(nested.errors?.[0]).toMatchObject({
        path: ["buyerProduct", "approvals"],
        extensions: { code: "VALIDATION_FAILED", fieldErrors: [{ path: ["after"], code: "invalid" }] },
      });
    });
  });
});
