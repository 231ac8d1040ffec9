// The GraphQL dry run `matchProduct`: a buyer can see what auto-match would
// do with a description, and why, before creating anything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createBuyerProduct, graphql, importCatalogue, MATCH_PRODUCT, matchProduct } from "./support.js";

describe("matchProduct (GraphQL dry run of auto-match)", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  /** By CAS number, code, name, synonym and similar name, in that order. */
  let ids: string[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Dry run");
    ids = await importCatalogue(harness.database, [
      { name: "Cocamidopropyl Betaine 30%", casNumber: "61789-40-0" },
      { name: "Amphoteric surfactant", code: "CAPB-30" },
      { name: "Cocamidopropyl Betaine" },
      { name: "Betaine surfactant", synonyms: ["Cocamidopropyl-Betaine"] },
      { name: "Cocamidopropyl Betaines" },
    ]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("ranks every candidate by rule, with the product, the rule and the score", async () => {
    const candidates = await matchProduct(
      harness.app,
      buyer.apiKey,
      "Cocamidopropyl Betaine (CAS 61789-40-0)",
      "RAW_MATERIAL",
      "capb-30",
    );
    expect(candidates).toEqual([
      {
        product: {
          id: ids[0],
          name: "Cocamidopropyl Betaine 30%",
          casNumber: "61789-40-0",
          code: null,
          productType: "RAW_MATERIAL",
        },
        strategy: "cas_number",
        score: 1,
      },
      { product: expect.objectContaining({ id: ids[1], code: "CAPB-30" }), strategy: "code", score: 1 },
      { product: expect.objectContaining({ id: ids[2] }), strategy: "name", score: 1 },
      { product: expect.objectContaining({ id: ids[3] }), strategy: "synonym", score: 1 },
      { product: expect.objectContaining({ id: ids[4] }), strategy: "similar_name", score: 0.88 },
    ]);
  });

  it("puts first the product that creating the buyer product then links to, and creates nothing itself", async () => {
    const products = await harness.database.prisma.product.count();
    const buyerProducts = await harness.database.prisma.buyerProduct.count();
    const [first] = await matchProduct(harness.app, buyer.apiKey, "COCAMIDOPROPYL BETAINE");
    expect(first).toMatchObject({ product: { id: ids[2] }, strategy: "name" });
    expect(await harness.database.prisma.product.count()).toBe(products);
    expect(await harness.database.prisma.buyerProduct.count()).toBe(buyerProducts);

    const created = await createBuyerProduct(harness.app, buyer.apiKey, {
      raw_material_name: "COCAMIDOPROPYL BETAINE",
    });
    expect(created.productId).toBe(first?.product.id);
    expect(created.autoMatch).toEqual({ matched: true, strategy: first?.strategy, score: first?.score });
  });

  it("answers an empty list when creating would make a new catalogue product", async () => {
    expect(await matchProduct(harness.app, buyer.apiKey, "Lauramidopropyl Betaine")).toEqual([]);
    expect(await matchProduct(harness.app, buyer.apiKey, "Cocamidopropyl Betaine", "FRAGRANCE")).toEqual([]);
    const created = await createBuyerProduct(harness.app, buyer.apiKey, {
      raw_material_name: "Lauramidopropyl Betaine",
    });
    expect(created.autoMatch).toEqual({ matched: false, strategy: "none", score: 0 });
  });

  it.each([
    ["only the product's type name", "product { __typename } score", { product: { __typename: "Product" } }],
    ["no field of the product", "strategy", { strategy: "name" }],
    ["the product's name alone", "product { name }", { product: { name: "Cocamidopropyl Betaine" } }],
  ])("answers candidates selecting %s", async (_selection, fields, first) => {
    const answer = await graphql<{ matchProduct: unknown[] }>(
      harness.app,
      buyer.apiKey,
      `{ matchProduct(rawMaterialName: "COCAMIDOPROPYL BETAINE", productType: RAW_MATERIAL) { ${fields} } }`,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.matchProduct[0]).toMatchObject(first);
  });

  it("needs an API key like every query", async () => {
    const response = await graphql<{ matchProduct: unknown }>(harness.app, null, MATCH_PRODUCT, {
      name: "Glycerin",
      type: "RAW_MATERIAL",
    });
    expect(response.status).toBe(401);
    expect(response.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(response.data?.matchProduct).toBeUndefined();
  });

  it("refuses a blank or over-long name with the field named, as createBuyerProduct does", async () => {
    for (const [name, code] of [
      ["   ", "required"],
      ["x".repeat(256), "too_long"],
    ] as const) {
      const response = await graphql(harness.app, buyer.apiKey, MATCH_PRODUCT, {
        name,
        type: "RAW_MATERIAL",
      });
      expect(response.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["rawMaterialName"], code }],
      });
    }
  });
});
