// What a products screen shows without client-side work: how each product was
// matched to the catalogue, and its approvals counted by status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedApprovals, seedBuyer, seedBuyerProduct } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphqlData, nodes, type Page } from "./helpers.js";

interface AutoMatch {
  matched: boolean;
  strategy: string;
  score: number;
}

describe("BuyerProduct.autoMatch and BuyerProduct.approvalCounts", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Products");
    other = await seedBuyer(harness.database, "Elsewhere");
  });
  afterAll(async () => {
    await harness?.close();
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
        expect(counting).toHaveLength(1);
        expect(counting[0]).toMatch(/GROUP BY/i);
        return harness.queries.length;
      };
      expect(await statements(9)).toBe(await statements(2));
    });
  });
});
