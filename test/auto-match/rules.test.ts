// What a buyer sees of auto-match when creating buyer products over REST:
// the names it recognises as a catalogue product, and the near-misses it
// refuses because a wrong match attaches the material to another chemical.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { type Created, createBuyerProduct, exactly, importCatalogue, NEW_PRODUCT } from "./support.js";

describe("auto-match recognises a catalogue product written another way", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  const catalogue = new Map<string, string>();
  const create = async (fields: Record<string, unknown>): Promise<Created> => {
    const created = await createBuyerProduct(harness.app, buyer.apiKey, fields);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created;
  };

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Rules");
    const products = [
      { name: "Sodium Lauryl Sulfate", casNumber: "151-21-3" },
      { name: "Magnesium Sulfate Heptahydrate", casNumber: "10034-99-8" },
      { name: "Calcium Chloride Dihydrate" },
      { name: "Aluminum Hydroxide" },
      { name: "Trisodium Citrate" },
      { name: "Sodium Hyaluronate" },
      { name: "Diclofenac Sodium" },
      { name: "Lidocaine Hydrochloride" },
      { name: "Zinc Oxide", casNumber: "1314-13-2" },
      { name: "PEG-400" },
      { name: "Polysorbate 80", synonyms: ["Tween 80"] },
      { name: "Cetearyl Alcohol" },
      { name: "Sodium Chloride", casNumber: "7647-14-5" },
      { name: "Glyceryl Stearate" },
      { name: "Tocopheryl Acetate" },
      { name: "(+)-Limonene", productType: "Fragrance" as const },
      { name: "HDPE Bottle 500 mL", productType: "Packaging" as const },
    ];
    const ids = await importCatalogue(harness.database, products);
    products.forEach((product, index) => {
      catalogue.set(product.name, ids[index] ?? "");
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each([
    ["Sodium Lauryl Sulphate", "Sodium Lauryl Sulfate", "British spelling"],
    ["sodium lauryl sulfate USP/NF", "Sodium Lauryl Sulfate", "pharmacopoeia grades"],
    ["Sodium Lauryl Sulfate, Technical Grade", "Sodium Lauryl Sulfate", "grade phrase"],
    ["Magnesium sulphate 7H2O", "Magnesium Sulfate Heptahydrate", "hydrate formula"],
    ["MAGNESIUM SULFATE · 7 H2O", "Magnesium Sulfate Heptahydrate", "hydrate with a middle dot"],
    ["Calcium chloride 2-hydrate", "Calcium Chloride Dihydrate", "numbered hydrate"],
    ["Aluminium Hydroxide", "Aluminum Hydroxide", "aluminium"],
    ["Citric acid, trisodium salt", "Trisodium Citrate", "acid salt notation"],
    ["Hyaluronic acid sodium salt", "Sodium Hyaluronate", "acid salt notation"],
    ["Sodium Diclofenac", "Diclofenac Sodium", "cation first or last"],
    ["Lidocaine HCl", "Lidocaine Hydrochloride", "HCl"],
    ["Zinc Oxide 25kg bag", "Zinc Oxide", "pack size"],
    ["PEG400", "PEG-400", "number written on"],
    ["Polysorbate-80 EP", "Polysorbate 80", "punctuation and grade"],
  ])("matches %j to %s by name (%s)", async (name, catalogueName) => {
    const created = await create({ raw_material_name: name });
    expect(created).toMatchObject({ productId: catalogue.get(catalogueName), autoMatch: exactly("name") });
  });

  it("matches a synonym written with a grade", async () => {
    const created = await create({ raw_material_name: "Tween 80 USP" });
    expect(created).toMatchObject({
      productId: catalogue.get("Polysorbate 80"),
      autoMatch: exactly("synonym"),
    });
  });

  it("keeps the size in a packaging name: another size is another product", async () => {
    const same = await create({ raw_material_name: "HDPE bottle 500ml", product_type: "Packaging" });
    expect(same).toMatchObject({
      productId: catalogue.get("HDPE Bottle 500 mL"),
      autoMatch: exactly("name"),
    });
    const other = await create({ raw_material_name: "HDPE Bottle 250 mL", product_type: "Packaging" });
    expect(other.autoMatch).toEqual(NEW_PRODUCT);
  });

  it.each([
    ["Sodium Laureth Sulfate", "SLES is not SLS"],
    ["Sodium Lauryl Ether Sulfate", "an extra word"],
    ["Potassium Chloride", "another cation"],
    ["Sodium Chlorite", "another anion a letter away"],
    ["PEG-40", "another number"],
    ["PEG-4000", "another number, similarity 0.89"],
    ["Polysorbate 20", "another number"],
    ["Cetyl Alcohol", "cetyl is not cetearyl"],
    ["Glyceryl Stearate SE", "self-emulsifying grade, similarity 0.9"],
    ["Magnesium Sulfate Hexahydrate", "another hydrate"],
    ["Magnesium Sulfate", "hydrate not given"],
    ["Diclofenac Potassium", "another salt"],
    ["Vitamin E", "part of a synonym-less name"],
  ])("creates a new product for %j rather than a wrong match (%s)", async (name) => {
    const created = await create({ raw_material_name: name });
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
    expect([...catalogue.values()]).not.toContain(created.productId);
  });

  it("does not match by CAS number when the check digit is wrong, nor by the name around it", async () => {
    const created = await create({ raw_material_name: "Zinc Oxide 1314-13-3" });
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
    const inCode = await create({ raw_material_name: "Mystery salt", raw_material_code: "7647-14-4" });
    expect(inCode.autoMatch).toEqual(NEW_PRODUCT);
  });

  it("does not match by name when the buyer's valid CAS number contradicts the product's", async () => {
    // 7440-23-5 is sodium metal; the catalogue's Sodium Chloride is 7647-14-5.
    const created = await create({ raw_material_name: "Sodium chloride 7440-23-5" });
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
    expect(created.productId).not.toBe(catalogue.get("Sodium Chloride"));
  });

  it("matches by name, synonym and similar name only within the product type", async () => {
    for (const name of ["Sodium Lauryl Sulfate", "Tween 80", "Tocopheryl Acetat"]) {
      const created = await create({ raw_material_name: name, product_type: "Fragrance" });
      expect(created.autoMatch, name).toEqual(NEW_PRODUCT);
    }
  });

  it("keeps optical isomers apart", async () => {
    const same = await create({ raw_material_name: "(+)-limonene", product_type: "Fragrance" });
    expect(same).toMatchObject({ productId: catalogue.get("(+)-Limonene"), autoMatch: exactly("name") });
    const mirror = await create({ raw_material_name: "(-)-Limonene", product_type: "Fragrance" });
    expect(mirror.autoMatch).toEqual(NEW_PRODUCT);
  });

  it("accepts a similar name only for a dropped letter, with its similarity as the score", async () => {
    const created = await create({ raw_material_name: "Tocopheryl Acetat" });
    expect(created.productId).toBe(catalogue.get("Tocopheryl Acetate"));
    expect(created.autoMatch).toEqual({ matched: true, strategy: "similar_name", score: 0.85 });
  });

  it("stores a new product under the same normalised name, so the next buyer's variant finds it", async () => {
    const first = await create({ raw_material_name: "Novel Emollient Ester 200 kg drum" });
    expect(first.autoMatch).toEqual(NEW_PRODUCT);
    const second = await create({ raw_material_name: "NOVEL EMOLLIENT ESTER, technical grade" });
    expect(second).toMatchObject({ productId: first.productId, autoMatch: exactly("name") });
  });
});

describe("auto-match picks deterministically among several hits", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Ties");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("prefers, for a shared CAS number or code, a product of the buyer's type, then the oldest", async () => {
    const [otherType, oldest, newer] = await importCatalogue(harness.database, [
      {
        name: "Ethanol (perfumery)",
        productType: "Fragrance",
        casNumber: "64-17-5",
        code: "ETH",
        createdAt: "2019-01-01T00:00:00.000Z",
      },
      { name: "Ethanol", casNumber: "64-17-5", code: "ETH", createdAt: "2020-01-01T00:00:00.000Z" },
      { name: "Ethanol Absolute", casNumber: "64-17-5", code: "ETH", createdAt: "2021-01-01T00:00:00.000Z" },
    ]);
    for (const fields of [
      { raw_material_name: "Alcohol 64-17-5" },
      { raw_material_name: "Alcohol", raw_material_code: "eth" },
    ]) {
      const created = await createBuyerProduct(harness.app, buyer.apiKey, fields);
      expect(created.productId).toBe(oldest);
      expect([otherType, newer]).not.toContain(created.productId);
    }
    const fragrance = await createBuyerProduct(harness.app, buyer.apiKey, {
      raw_material_name: "Alcohol 64-17-5",
      product_type: "Fragrance",
    });
    expect(fragrance.productId).toBe(otherType);
  });

  it("gives the same answer every time", async () => {
    await importCatalogue(harness.database, [
      { name: "Isopropyl Myristate", createdAt: "2020-01-01T00:00:00.000Z" },
      { name: "Isopropyl-Myristate", createdAt: "2020-01-01T00:00:00.000Z" },
    ]);
    const answers = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      answers.add(
        (await createBuyerProduct(harness.app, buyer.apiKey, { raw_material_name: "Isopropyl Myristat" }))
          .productId,
      );
    }
    expect(answers.size).toBe(1);
  });
});
