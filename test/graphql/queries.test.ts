// The GraphQL reads a front-end uses: every list a Relay connection scoped to
// the key's buyer, single lookups, the links between records both ways, order
// history, and nested selections answered without a query per record; what a
// products screen shows without client-side work; global IDs; the webhook lists.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectSupplier,
  type SeededBuyer,
  seedApprovals,
  seedBuyer,
  seedBuyerProduct,
  seedOrders,
} from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { answerStatements, GRAPHQL, graphql, graphqlData, nodes, type Page } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

const hoursAfter = (hours: number) => new Date(Date.UTC(2025, 2, 1, hours));

describe("GraphQL queries", () => {
  let alpha: SeededBuyer;
  let beta: SeededBuyer;
  /** Alpha's orders, newest first by creation time then id. */
  let alphaOrders: string[];
  let betaOrders: string[];
  let secondApprovalId: string;

  beforeAll(async () => {
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
        return answerStatements(harness.queries).length;
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

// What a products screen shows without client-side work: how each product was
// matched to the catalogue, and its approvals counted by status.
interface AutoMatch {
  matched: boolean;
  strategy: string;
  score: number;
}

describe("BuyerProduct.autoMatch and BuyerProduct.approvalCounts", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Products");
    other = await seedBuyer(harness.database, "Elsewhere");
  });

  const readAutoMatch = async (id: string) =>
    (
      await graphqlData<{ buyerProduct: { autoMatch: AutoMatch | null } }>(
        harness.app,
        `query ($id: UUID!) { buyerProduct(id: $id) { autoMatch { matched strategy score } } }`,
        { key: buyer.apiKey, variables: { id } },
      )
    ).buyerProduct.autoMatch;

  describe("autoMatch", () => {
    it("keeps the outcome createBuyerProduct answered, for GraphQL and REST creations alike", async () => {
      const created = await graphqlData<{
        createBuyerProduct: { buyerProduct: { databaseId: string }; autoMatch: AutoMatch };
      }>(
        harness.app,
        `mutation ($input: CreateBuyerProductInput!) {
          createBuyerProduct(input: $input) { buyerProduct { databaseId } autoMatch { matched strategy score } }
        }`,
        {
          key: buyer.apiKey,
          variables: {
            input: { rawMaterialName: "Glycerol", measurementUnit: "KG", productType: "RAW_MATERIAL" },
          },
        },
      );
      expect(created.createBuyerProduct.autoMatch).toEqual({ matched: true, strategy: "synonym", score: 1 });
      expect(await readAutoMatch(created.createBuyerProduct.buyerProduct.databaseId)).toEqual(
        created.createBuyerProduct.autoMatch,
      );

      const rest = await callApi(harness.app, "POST", "/buyer_products", {
        key: buyer.apiKey,
        body: {
          raw_material_name: "Unheard-of resin 7",
          measurement_unit: "kg",
          product_type: "Raw Material",
        },
      });
      expect(rest.status).toBe(201);
      const body = rest.body as { id: string; auto_match: AutoMatch };
      expect(body.auto_match).toEqual({ matched: false, strategy: "none", score: 0 });
      expect(await readAutoMatch(body.id)).toEqual(body.auto_match);
    });

    it("is null for a product whose outcome was never stored (created before, or imported)", async () => {
      expect(await readAutoMatch(buyer.buyerProductId)).toBeNull();
    });
  });

  describe("approvalCounts", () => {
    const query = `query ($first: Int) {
      buyerProducts(first: $first) {
        edges { node { databaseId approvalCounts { approved pending sampleRequested unapproved total } } }
      }
    }`;
    type Counts = {
      approved: number;
      pending: number;
      sampleRequested: number;
      unapproved: number;
      total: number;
    };

    it("counts each product's approvals by status, and only the buyer's", async () => {
      const counted = await seedBuyerProduct(harness.database, buyer, "Counted");
      const bare = await seedBuyerProduct(harness.database, buyer, "No approvals");
      await seedApprovals(harness.database, buyer, [
        { approvalStatus: "approved", buyerProductId: counted },
        { approvalStatus: "approved", buyerProductId: counted },
        { approvalStatus: "pending", buyerProductId: counted },
        { approvalStatus: "sample_requested", buyerProductId: counted },
        { approvalStatus: "inactive", buyerProductId: counted },
      ]);
      await seedApprovals(harness.database, other, [{ approvalStatus: "pending" }]);
      const data = await graphqlData<{
        buyerProducts: Page<{ databaseId: string; approvalCounts: Counts }>;
      }>(harness.app, query, { key: buyer.apiKey, variables: { first: 50 } });
      const byId = new Map(nodes(data.buyerProducts).map((node) => [node.databaseId, node.approvalCounts]));
      expect(byId.get(counted)).toEqual({
        approved: 2,
        pending: 1,
        sampleRequested: 1,
        unapproved: 0,
        total: 5,
      });
      expect(byId.get(bare)).toEqual({
        approved: 0,
        pending: 0,
        sampleRequested: 0,
        unapproved: 0,
        total: 0,
      });
      // The seeded product's one approval.
      expect(byId.get(buyer.buyerProductId)).toMatchObject({ approved: 1, total: 1 });
    });

    it("counts a page of products in one statement, whatever the page size", async () => {
      for (let index = 0; index < 8; index++) {
        const id = await seedBuyerProduct(harness.database, buyer, `Paged ${index}`);
        await seedApprovals(harness.database, buyer, [{ approvalStatus: "pending", buyerProductId: id }]);
      }
      const statements = async (first: number) => {
        await graphqlData(harness.app, query, { key: buyer.apiKey, variables: { first } });
        harness.resetQueries();
        const data = await graphqlData<{ buyerProducts: Page<unknown> }>(harness.app, query, {
          key: buyer.apiKey,
          variables: { first },
        });
        expect(data.buyerProducts.edges).toHaveLength(first);
        const counting = harness.queries.filter((sql) => /buyer_product_approvals/.test(sql));
        // The page's own statement, which counts each product's approvals as it reads the product.
        expect(counting).toHaveLength(1);
        expect(counting[0]).toMatch(/FROM "buyer_products"/);
        return answerStatements(harness.queries).length;
      };
      expect(await statements(9)).toBe(await statements(2));
    });
  });
});

// Global IDs as Relay and Apollo clients use them: `Node.id` for caches and
// refetching, `databaseId` for the UUID, node/nodes within the buyer's own
// records, and id arguments that take either form.
const globalId = (type: string, uuid: string) => Buffer.from(`${type}:${uuid}`).toString("base64");

describe("global IDs", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderIds: string[];

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Nodes");
    other = await seedBuyer(harness.database, "Others");
    orderIds = await seedOrders(
      harness.database,
      buyer,
      Array.from({ length: 60 }, (_, index) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, index)) })),
    );
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

// The webhook lists (endpoints, events, deliveries): the buyer's rows only,
// newest first, paged forward, their arguments checked before anything is read.
interface EndpointPage {
  webhookEndpoints: {
    totalCount: number;
    nodes: { url: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

describe("webhook lists over GraphQL", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let othersEndpointId: string;

  const createEndpoint = async (key: string, path: string) => {
    const data = await graphqlData<{ createWebhookEndpoint: { endpoint: { id: string } } }>(
      harness.app,
      "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
      { key, variables: { input: { url: `https://93.184.215.14/${path}`, enabledEvents: ["*"] } } },
    );
    return data.createWebhookEndpoint.endpoint.id;
  };

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Lists");
    other = await seedBuyer(harness.database, "Other");
    for (const path of ["first", "second", "third"]) await createEndpoint(buyer.apiKey, path);
    othersEndpointId = await createEndpoint(other.apiKey, "others");
  });

  it("pages through the buyer's endpoints newest first, without another buyer's", async () => {
    const query = `query($after: String) { webhookEndpoints(first: 2, after: $after) {
      totalCount nodes { url } pageInfo { hasNextPage endCursor } } }`;
    const first = await graphqlData<EndpointPage>(harness.app, query, { key: buyer.apiKey });
    expect(first.webhookEndpoints.totalCount).toBe(3);
    expect(first.webhookEndpoints.nodes.map((node) => node.url)).toEqual([
      "https://93.184.215.14/third",
      "https://93.184.215.14/second",
    ]);
    expect(first.webhookEndpoints.pageInfo.hasNextPage).toBe(true);
    const next = await graphqlData<EndpointPage>(harness.app, query, {
      key: buyer.apiKey,
      variables: { after: first.webhookEndpoints.pageInfo.endCursor },
    });
    expect(next.webhookEndpoints.nodes.map((node) => node.url)).toEqual(["https://93.184.215.14/first"]);
    expect(next.webhookEndpoints.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses a bad page size and unknown event types in one answer, naming each argument", async () => {
    const refused = await graphql(
      harness.app,
      `{ events(first: 0, filter: { type: ["order.created", "order.deleted"] }) { totalCount } }`,
      { key: buyer.apiKey },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const problems = (refused.errors?.[0]?.extensions?.fieldErrors ?? []) as { path: unknown[] }[];
    expect(problems.map((problem) => problem.path.join("."))).toEqual(["first", "filter.type.1"]);
  });

  it("answers NOT_FOUND for the deliveries of another buyer's endpoint, after checking the page size", async () => {
    const query = `query($endpointId: UUID!, $first: Int) {
      webhookDeliveries(endpointId: $endpointId, first: $first) { totalCount } }`;
    const notFound = await graphql(harness.app, query, {
      key: buyer.apiKey,
      variables: { endpointId: othersEndpointId },
    });
    expect(notFound.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const badSize = await graphql(harness.app, query, {
      key: buyer.apiKey,
      variables: { endpointId: othersEndpointId, first: 501 },
    });
    expect(badSize.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const own = await graphqlData<{ webhookDeliveries: { totalCount: number } }>(harness.app, query, {
      key: other.apiKey,
      variables: { endpointId: othersEndpointId },
    });
    expect(own.webhookDeliveries.totalCount).toBe(0);
  });

  it("answers UNAUTHENTICATED without a key before looking at the arguments", async () => {
    for (const query of [
      "{ webhookEndpoints(first: 0) { totalCount } }",
      '{ events(first: 0, filter: { type: ["order.deleted"] }) { totalCount } }',
      `{ webhookDeliveries(endpointId: "${othersEndpointId}", first: 0) { totalCount } }`,
    ]) {
      const refused = await graphql(harness.app, query, { key: null });
      expect(refused.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
  });
});
