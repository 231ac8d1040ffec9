// Issue 15, defect 10: a buyer's valid CAS number that contradicts a name
// match is refused (the guard) and must not ride along on the product created
// instead, or a later product with that CAS number would be linked to the
// wrong name. No sequence of creations may produce such a link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createBuyerProduct, exactly, importCatalogue, NEW_PRODUCT } from "./support.js";

describe("auto-match over a sequence of creations", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let citricAcid: string;
  let lavenderOil: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "First");
    other = await seedBuyer(harness.database, "Second");
    const ids = await importCatalogue(harness.database, [
      { name: "Citric Acid", casNumber: "77-92-9" },
      { name: "Lavender Oil", casNumber: "8000-28-0", productType: "Fragrance" },
    ]);
    citricAcid = ids[0] ?? "";
    lavenderOil = ids[1] ?? "";
  });
  afterAll(async () => {
    await harness?.close();
  });

  const create = (fields: Record<string, unknown>, by = buyer) =>
    createBuyerProduct(harness.app, by.apiKey, fields);

  it("does not give a product created after a contradiction the contradicting CAS number", async () => {
    // 64-17-5 is ethanol's CAS number, not yet in this catalogue.
    const citric = await create({ raw_material_name: "Citric Acid", raw_material_code: "64-17-5" });
    expect(citric.autoMatch).toEqual(NEW_PRODUCT);
    expect(citric.productId).not.toBe(citricAcid);
    const stored = await harness.database.prisma.product.findUniqueOrThrow({
      where: { id: citric.productId },
    });
    expect(stored).toMatchObject({ casNumber: null, disputedCasNumbers: ["64-17-5"] });

    const ethanol = await create({ raw_material_name: "Ethanol 96%", raw_material_code: "64-17-5" }, other);
    expect(ethanol.autoMatch).toEqual(NEW_PRODUCT);
    expect(ethanol.productId).not.toBe(citric.productId);
    // The CAS number now identifies the ethanol, and the name still the catalogue's citric acid.
    expect(await create({ raw_material_name: "Ethyl alcohol (CAS 64-17-5)" }, other)).toMatchObject({
      productId: ethanol.productId,
      autoMatch: exactly("cas_number"),
    });
    expect(await create({ raw_material_name: "Citric acid" }, other)).toMatchObject({
      productId: citricAcid,
      autoMatch: exactly("name"),
    });
  });

  it("links the same contradicting claim made again to the product it made, not to a new one", async () => {
    const first = await create({ raw_material_name: "Citric Acid", raw_material_code: "50-70-4" });
    expect(first.autoMatch).toEqual(NEW_PRODUCT);
    const again = await create({ raw_material_name: "CITRIC ACID (CAS 50-70-4)" }, other);
    expect(again).toMatchObject({ productId: first.productId, autoMatch: exactly("name") });
  });

  it("counts a contradiction by synonym, similar name, or the same name under another product type", async () => {
    await importCatalogue(harness.database, [
      { name: "Sodium Lauryl Sulfate", casNumber: "151-21-3", synonyms: ["SLS"] },
      { name: "Tocopheryl Acetate", casNumber: "7695-91-2" },
    ]);
    for (const [name, cas, product_type] of [
      ["SLS", "57-13-6", "Raw Material"],
      ["Tocopheryl Acetat", "98-92-0", "Raw Material"],
      ["Lavender Oil", "100-51-6", "Raw Material"],
    ] as const) {
      const created = await create({ raw_material_name: name, raw_material_code: cas, product_type });
      expect(created.autoMatch, name).toEqual(NEW_PRODUCT);
      expect(created.productId).not.toBe(lavenderOil);
      const later = await create({ raw_material_name: `Another substance ${cas}` }, other);
      expect(later.autoMatch, `${name}: a later product with ${cas}`).toEqual(NEW_PRODUCT);
      expect(later.productId).not.toBe(created.productId);
    }
  });

  it("keeps an uncontradicted CAS number on the new product, which finds it next time", async () => {
    const created = await create({ raw_material_name: "Panthenol", raw_material_code: "81-13-0" });
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
    expect(await create({ raw_material_name: "Provitamin B5 81-13-0" }, other)).toMatchObject({
      productId: created.productId,
      autoMatch: exactly("cas_number"),
    });
  });

  it("never links one buyer's code to another buyer's product that happens to use it", async () => {
    const mine = await create({ raw_material_name: "Emollient Blend Alpha", raw_material_code: "RM-0001" });
    const theirs = await create(
      { raw_material_name: "Potassium Cetyl Phosphate", raw_material_code: "RM-0001" },
      other,
    );
    expect(theirs.autoMatch).toEqual(NEW_PRODUCT);
    expect(theirs.productId).not.toBe(mine.productId);
  });
});
