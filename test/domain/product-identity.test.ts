// The keys a product is matched by: its name for its type, its code, and the
// stored keys of a catalogue product that `catalogue renormalize` rewrites.
import { describe, expect, it } from "vitest";
import {
  catalogueKeys,
  normalizeProductCode,
  normalizeProductName,
  normalizeProductNameForType,
} from "../../src/domain/product-identity.js";

describe("product names", () => {
  it("drop pack sizes for anything but Packaging, whichever spelling names the type", () => {
    expect(normalizeProductNameForType("Glycerin 250 kg drum", "Raw Material")).toBe("glycerin");
    expect(normalizeProductNameForType("Glycerin 250 kg drum", "RawMaterial")).toBe("glycerin");
    expect(normalizeProductNameForType("HDPE Bottle 500 mL", "Packaging")).toBe(
      normalizeProductName("HDPE Bottle 500 mL"),
    );
    expect(normalizeProductName("HDPE Bottle 500 mL")).toContain("500");
  });
});

describe("product codes", () => {
  it("compare without case, width, surrounding space or invisible characters", () => {
    expect(normalizeProductCode("  AB-\u200B12 ")).toBe("ab-12");
    expect(normalizeProductCode("ＡＢ－１２")).toBe("ab-12");
  });
});

describe("a catalogue product's stored keys", () => {
  it("are its name, code and synonyms normalised for its type; no code stays none", () => {
    expect(
      catalogueKeys({
        name: "Glycerine USP",
        code: " GLY-1 ",
        synonyms: ["Glycerol 1 kg", "E422"],
        productType: "Raw Material",
      }),
    ).toEqual({
      normalizedName: "glycerin",
      normalizedCode: "gly-1",
      normalizedSynonyms: ["glycerol", "e 422"],
    });
    expect(
      catalogueKeys({ name: "Box", code: null, synonyms: [], productType: "Packaging" }).normalizedCode,
    ).toBeNull();
  });
});
