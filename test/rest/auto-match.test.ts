// decisions.md §3 "Auto-match criteria", seen through POST /buyer_products:
// the first rule that hits wins; otherwise a new catalogue product is created.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedProduct } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { objectBody } from "./helpers.js";

interface Created {
  productId: string;
  autoMatch: { matched: boolean; strategy: string; score: number };
}

describe("auto-match on POST /buyer_products", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let water: string;
  let titanium: string;
  let coded: string;

  const create = async (fields: Record<string, unknown>): Promise<Created> => {
    const response = await callApi(harness.app, "POST", "/buyer_products", {
      key: buyer.apiKey,
      body: { measurement_unit: "kg", product_type: "Raw Material", ...fields },
    });
    expect(response.status).toBe(201);
    const body = objectBody(response);
    return { productId: String(body.product_id), autoMatch: body.auto_match as Created["autoMatch"] };
  };
  const exact = (strategy: string) => ({ matched: true, strategy, score: 1 });
  const NONE = { matched: false, strategy: "none", score: 0 };

  beforeAll(async () => {
    harness = await createTestApp();
    // Its catalogue product: "Glycerin", code GLY-1, CAS 56-81-5, synonym "Glycerol", Raw Material.
    buyer = await seedBuyer(harness.database, "Matching");
    water = await seedProduct(harness.database, {
      name: "Purified Water",
      productType: "Other",
      casNumber: "7732-18-5",
    });
    titanium = await seedProduct(harness.database, { name: "Titanium Dioxide", productType: "RawMaterial" });
    coded = await seedProduct(harness.database, {
      name: "Coded Thing",
      productType: "Packaging",
      code: "PKG-Box-7",
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe("cas_number", () => {
    it("matches a valid CAS number written in the name", async () => {
      const created = await create({ raw_material_name: "Glycerine 99.7% (CAS 56-81-5)" });
      expect(created).toEqual({ productId: buyer.productId, autoMatch: exact("cas_number") });
    });

    it("matches a valid CAS number given as the code, whatever the product type", async () => {
      const created = await create({ raw_material_name: "DI rinse", raw_material_code: "7732-18-5" });
      expect(created).toEqual({ productId: water, autoMatch: exact("cas_number") });
    });

    it("does not match by CAS when the check digit is wrong", async () => {
      const created = await create({ raw_material_name: "Mystery solvent 7732-18-4", product_type: "Other" });
      expect(created.autoMatch).toEqual(NONE);
      expect(created.productId).not.toBe(water);
    });

    it("wins over a code that names another product", async () => {
      const created = await create({ raw_material_name: "Water 7732-18-5", raw_material_code: "GLY-1" });
      expect(created).toEqual({ productId: water, autoMatch: exact("cas_number") });
    });
  });

  describe("code", () => {
    it("matches the code case-insensitively and ignoring surrounding space", async () => {
      for (const code of ["gly-1", " GLY-1 ", "Gly-1"]) {
        const created = await create({
          raw_material_name: `Something else ${code}`,
          raw_material_code: code,
        });
        expect(created).toEqual({ productId: buyer.productId, autoMatch: exact("code") });
      }
    });

    it("matches whatever the product type, and wins over a name that names another product", async () => {
      const created = await create({
        raw_material_name: "Titanium Dioxide",
        raw_material_code: "pkg-box-7",
        product_type: "Dye",
      });
      expect(created).toEqual({ productId: coded, autoMatch: exact("code") });
    });
  });

  describe("name", () => {
    it("matches the normalised name of the same product type", async () => {
      for (const name of ["glycerin", "  GLYCERIN!! ", "Ｇｌｙｃｅｒｉｎ", "Glycerin."]) {
        const created = await create({ raw_material_name: name });
        expect(created, name).toEqual({ productId: buyer.productId, autoMatch: exact("name") });
      }
    });

    it("treats punctuation as a space and collapses whitespace", async () => {
      const first = await create({ raw_material_name: "Sodium-Lauryl Sulfate" });
      expect(first.autoMatch).toEqual(NONE);
      const second = await create({ raw_material_name: "sodium lauryl   SULFATE" });
      expect(second).toEqual({ productId: first.productId, autoMatch: exact("name") });
    });

    it("does not match a product of another type by name", async () => {
      const created = await create({ raw_material_name: "Glycerin", product_type: "Fragrance" });
      expect(created.autoMatch).toEqual(NONE);
      expect(created.productId).not.toBe(buyer.productId);
    });
  });

  describe("synonym", () => {
    it("matches a synonym of a product of the same type", async () => {
      const created = await create({ raw_material_name: "GLYCEROL" });
      expect(created).toEqual({ productId: buyer.productId, autoMatch: exact("synonym") });
    });

    it("does not match a synonym across product types", async () => {
      const created = await create({ raw_material_name: "Glycerol", product_type: "Dye" });
      expect(created.autoMatch).toEqual(NONE);
    });
  });

  describe("similar_name", () => {
    it("matches a name with trigram similarity of at least 0.8, with the score", async () => {
      const created = await create({ raw_material_name: "Titanium dioxid" });
      expect(created.productId).toBe(titanium);
      expect(created.autoMatch).toEqual({ matched: true, strategy: "similar_name", score: 0.833 });
    });

    it("picks the most similar product", async () => {
      const plain = await seedProduct(harness.database, { name: "Propylene Glycol", productType: "Dye" });
      await seedProduct(harness.database, { name: "Propylene Glycol USP", productType: "Dye" });
      const created = await create({ raw_material_name: "Propylene Glycols", product_type: "Dye" });
      expect(created.productId).toBe(plain);
      expect(created.autoMatch.strategy).toBe("similar_name");
      expect(created.autoMatch.score).toBeGreaterThanOrEqual(0.8);
      expect(created.autoMatch.score).toBeLessThan(1);
    });

    it("breaks a tie in favour of the oldest product", async () => {
      const newer = await seedProduct(harness.database, {
        name: "Citric Acid Anhydrous",
        productType: "Fragrance",
        createdAt: new Date("2024-06-01T00:00:00.000Z"),
      });
      const older = await seedProduct(harness.database, {
        name: "Citric Acid, Anhydrous",
        productType: "Fragrance",
        createdAt: new Date("2024-01-01T00:00:00.000Z"),
      });
      const created = await create({ raw_material_name: "Citric Acid Anhydrou", product_type: "Fragrance" });
      expect(created.productId).toBe(older);
      expect(created.productId).not.toBe(newer);
      expect(created.autoMatch.strategy).toBe("similar_name");
    });

    it("does not match below 0.8, nor across product types", async () => {
      await seedProduct(harness.database, { name: "Cetearyl Alcohol", productType: "RawMaterial" });
      const below = await create({ raw_material_name: "Cetyl Alcohol" });
      expect(below.autoMatch).toEqual(NONE);
      const otherType = await create({ raw_material_name: "Titanium dioxid", product_type: "Packaging" });
      expect(otherType.autoMatch).toEqual(NONE);
      expect(otherType.productId).not.toBe(titanium);
    });
  });

  describe("no match", () => {
    it("creates a catalogue product, which the next creation with that name matches by name", async () => {
      const before = await harness.database.prisma.product.count();
      const first = await create({ raw_material_name: "Zirconium Oxychloride Octahydrate" });
      expect(first.autoMatch).toEqual(NONE);
      expect(await harness.database.prisma.product.count()).toBe(before + 1);
      const product = await harness.database.prisma.product.findUniqueOrThrow({
        where: { id: first.productId },
      });
      // The catalogue keeps the match key, not the buyer's text (decisions: shared catalogue and privacy).
      expect(product).toMatchObject({
        name: null,
        code: null,
        normalizedName: "zirconium oxychloride octahydrate",
        productType: "RawMaterial",
      });
      const origin = await harness.database.prisma.buyerProduct.findUniqueOrThrow({
        where: { id: product.originBuyerProductId ?? "" },
      });
      expect(origin).toMatchObject({
        productId: first.productId,
        rawMaterialName: "Zirconium Oxychloride Octahydrate",
      });

      const second = await create({ raw_material_name: "Zirconium Oxychloride Octahydrate" });
      expect(second).toEqual({ productId: first.productId, autoMatch: exact("name") });
      expect(await harness.database.prisma.product.count()).toBe(before + 1);
    });

    it("a new product is found by its valid CAS number next time, never by the buyer's code", async () => {
      const first = await create({
        raw_material_name: "Sodium chloride",
        raw_material_code: "NaCl-Fine",
        product_type: "Other",
      });
      expect(first.autoMatch).toEqual(NONE);
      // A buyer's code is private and means something else in another buyer's numbering.
      const byCode = await create({ raw_material_name: "Table salt", raw_material_code: "nacl-fine" });
      expect(byCode.autoMatch).toEqual(NONE);
      expect(byCode.productId).not.toBe(first.productId);
      const withCas = await create({ raw_material_name: "Isopropanol 67-63-0", product_type: "Other" });
      expect(withCas.autoMatch).toEqual(NONE);
      const byCas = await create({ raw_material_name: "IPA", raw_material_code: "67-63-0" });
      expect(byCas).toEqual({ productId: withCas.productId, autoMatch: exact("cas_number") });
    });

    it("two concurrent creations of the same new name create one catalogue product", async () => {
      const before = await harness.database.prisma.product.count();
      const results = await Promise.all([
        create({ raw_material_name: "Concurrent Novelty Resin" }),
        create({ raw_material_name: "concurrent novelty resin" }),
      ]);
      expect(results[0]?.productId).toBe(results[1]?.productId);
      expect(results.map((result) => result.autoMatch.strategy).sort()).toEqual(["name", "none"]);
      expect(await harness.database.prisma.product.count()).toBe(before + 1);
    });
  });
});
