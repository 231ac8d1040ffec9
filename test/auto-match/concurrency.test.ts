// Buyers (or one integration retrying in parallel) create the same new
// product at the same moment: the catalogue gets one product, and every buyer
// product points at it. On PostgreSQL the requests really overlap (the pool
// has room for all of them); on PGlite they run one after another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { type Created, createBuyerProduct } from "./support.js";

const PARALLEL = 8;

describe("concurrent creations of the same new product", () => {
  let harness: TestApp;
  let buyers: SeededBuyer[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyers = [await seedBuyer(harness.database, "First"), await seedBuyer(harness.database, "Second")];
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function createAll(names: readonly Record<string, unknown>[]): Promise<Created[]> {
    const results = await Promise.all(
      names.map((fields, index) =>
        createBuyerProduct(harness.app, buyers[index % buyers.length]?.apiKey ?? "", fields),
      ),
    );
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(201);
    return results;
  }

  async function cataloguePointedAt(results: Created[]): Promise<string[]> {
    const ids = [...new Set(results.map((result) => result.productId))];
    const rows = await harness.database.prisma.buyerProduct.findMany({
      where: { id: { in: results.map((result) => String(result.body.id)) } },
      select: { productId: true },
    });
    expect(rows).toHaveLength(results.length);
    expect(new Set(rows.map((row) => row.productId))).toEqual(new Set(ids));
    return ids;
  }

  it(`${PARALLEL} parallel POSTs of one new name, written ${PARALLEL} ways, create one catalogue product`, async () => {
    const spellings = [
      "Novel Polymer Resin X",
      "NOVEL POLYMER RESIN X",
      "novel-polymer resin x",
      "Novel Polymer Resin X USP",
      "Novel Polymer Resin X 200 kg drum",
      "  Novel   Polymer Resin X  ",
      "Novel Polymer Resin X, technical grade",
      "Novel Polymer Resin X (BP)",
    ];
    const results = await createAll(spellings.map((raw_material_name) => ({ raw_material_name })));

    const ids = await cataloguePointedAt(results);
    expect(ids).toHaveLength(1);
    const products = await harness.database.prisma.product.findMany({
      where: { normalizedName: "novel polymer resin x" },
    });
    expect(products.map((product) => product.id)).toEqual(ids);
    expect(results.filter((result) => !result.autoMatch.matched)).toHaveLength(1);
  });

  it("similar new names created at once give one product, the others matching it by similar name", async () => {
    const names = ["Sodium Cocoyl Glutamate", "Sodium Cocoyl Glutamat"];
    const results = await createAll(
      Array.from({ length: PARALLEL }, (_, index) => ({ raw_material_name: names[index % names.length] })),
    );
    expect(await cataloguePointedAt(results)).toHaveLength(1);
    expect(new Set(results.map((result) => result.autoMatch.strategy))).toEqual(
      new Set(["none", "name", "similar_name"]),
    );
  });

  it("one new CAS number under different names and product types gives one product", async () => {
    const types = ["Raw Material", "Fragrance", "Dye", "Other"];
    const results = await createAll(
      Array.from({ length: PARALLEL }, (_, index) => ({
        raw_material_name: `Supplier name ${index} (CAS 5392-40-5)`,
        product_type: types[index % types.length],
      })),
    );
    expect(await cataloguePointedAt(results)).toHaveLength(1);
    expect(await harness.database.prisma.product.count({ where: { casNumber: "5392-40-5" } })).toBe(1);
  });
});
