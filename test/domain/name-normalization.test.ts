// Name normalisation for auto-match: every example of docs/reference/auto-match.md's
// "Normalisation" table, and what it deliberately does not do.
import { describe, expect, it } from "vitest";
import { normalizeName } from "../../src/domain/name-normalization.js";
import { normalizeProductNameForType } from "../../src/domain/product-identity.js";

const material = (name: string) => normalizeProductNameForType(name, "Raw Material");
const packaging = (name: string) => normalizeProductNameForType(name, "Packaging");

describe("normalisation of a material's name", () => {
  it.each([
    ["NFKC", "Ｇｌｙｃｅｒｉｎ", "glycerin"],
    ["Latin diacritics dropped", "Crème", "creme"],
    ["case folding of ß", "Weiß", "weiss"],
    ["punctuation and repeated whitespace", "Sodium-Lauryl  Sulfate.", "sodium lauryl sulfate"],
    ["an invisible character rejoins the word", "Glyc\u200Berin", "glycerin"],
    ["apostrophes join", "Baker's Yeast", "bakers yeast"],
    ["a prime after a locant stays a word", "N,N'-Dimethylurea", "n n prime dimethylurea"],
    ["optical rotation (+)", "(+)-Limonene", "plus limonene"],
    ["optical rotation (-)", "(-)-Limonene", "minus limonene"],
    ["optical rotation (±)", "(±)-Limonene", "racemic limonene"],
    ["Greek letters", "α-Tocopherol", "alpha tocopherol"],
    ["dotted abbreviations", "C.I. 77891", "ci 77891"],
    ["letters and digits split", "PEG400", "peg 400"],
    ["letters and digits split, hyphenated", "PEG-400", "peg 400"],
    ["No. before a number", "FD&C Red No. 40", "fd c red 40"],
    ["trademark sign", "Tween™ 80", "tween 80"],
    ["a valid CAS number and its label", "Glycerin (CAS 56-81-5)", "glycerin"],
    ["British spelling", "Sodium Lauryl Sulphate", "sodium lauryl sulfate"],
    ["older spelling", "Glycerine", "glycerin"],
    ["pharmacopoeia marks", "Glycerin BP/USP", "glycerin"],
    ["grade words", "Sodium chloride, technical grade", "sodium chloride"],
    ["a purity stays", "Glycerin USP 99.5%", "glycerin 99 5 percent"],
    ["hydrate formula", "MgSO4·7H2O", "mgso 4 heptahydrate"],
    ["hydrate count", "Magnesium sulfate 7 H2O", "magnesium sulfate heptahydrate"],
    ["hydrate with a hyphen", "Copper sulfate 5-hydrate", "copper sulfate pentahydrate"],
    ["half hydrate as a fraction", "Calcium sulfate 1/2-hydrate", "calcium sulfate hemihydrate"],
    ["half hydrate as a fraction sign", "Calcium sulfate ½ H2O", "calcium sulfate hemihydrate"],
    ["acid-salt notation", "Citric acid, trisodium salt", "trisodium citrate"],
    ["acid-salt notation without a comma", "Hyaluronic acid sodium salt", "sodium hyaluronate"],
    ["an abbreviation's salt", "EDTA disodium salt", "disodium edta"],
    ["HCl spelled out", "Lidocaine HCl", "lidocaine hydrochloride"],
    ["a trailing cation moves to the front", "Diclofenac Sodium", "sodium diclofenac"],
    ["pack size with a pack word", "Zinc Oxide 25kg bag", "zinc oxide"],
    ["pack size in litres", "Ethanol 200 L drum", "ethanol"],
  ])("%s: %j → %j", (_step, name, normalised) => {
    expect(material(name)).toBe(normalised);
  });

  it("makes two buyers' spellings of one material agree", () => {
    expect(material("Sodium Lauryl Sulphate USP, 25 kg bag")).toBe(material("sodium lauryl sulfate"));
  });
});

describe("what normalisation keeps apart", () => {
  it("keeps a packaging item's size: the size is what it is", () => {
    expect(packaging("HDPE Bottle 500 mL")).toBe("hdpe bottle 500 ml");
  });

  it("keeps a one-letter unit that stands beside no pack word", () => {
    expect(material("Lipo 10 G")).toBe("lipo 10 g");
  });

  it("keeps a number after a grade mark: EP 250 is a trade name", () => {
    expect(material("Lutrol EP 250")).not.toBe(material("Lutrol"));
  });

  it("does not convert units", () => {
    expect(packaging("Bottle 1000 mL")).not.toBe(packaging("Bottle 1 L"));
  });

  it("keeps a hydrate apart from the anhydrous substance", () => {
    expect(material("Magnesium sulfate heptahydrate")).not.toBe(material("Magnesium sulfate"));
    expect(material("Citric acid anhydrous")).not.toBe(material("Citric acid"));
  });

  it("does not read a fraction's denominator as the hydrate count", () => {
    expect(material("Calcium sulfate 3/2-hydrate")).toBe("calcium sulfate 3 2 hydrate");
  });

  it("keeps enantiomers apart", () => {
    expect(material("(+)-Limonene")).not.toBe(material("(-)-Limonene"));
  });

  it("keeps N,N′- and N,N- compounds apart", () => {
    expect(material("N,N'-Dimethylurea")).not.toBe(material("N,N-Dimethylurea"));
  });

  it("does not expand abbreviations: that is what catalogue synonyms are for", () => {
    expect(material("SLS")).not.toBe(material("Sodium Lauryl Sulfate"));
  });

  it("does not remove a CAS number whose check digit is wrong", () => {
    expect(material("Glycerin 56-81-6")).not.toBe(material("Glycerin"));
  });
});

describe("normalizeName's pack sizes", () => {
  it("keeps sizes when asked (packaging) and drops them otherwise", () => {
    expect(normalizeName("Glycerin 250 kg drum", { keepPackSizes: false })).toBe("glycerin");
    expect(normalizeName("Glycerin 250 kg drum", { keepPackSizes: true })).not.toBe("glycerin");
  });

  it("reduces a name of nothing but punctuation to nothing", () => {
    expect(normalizeName(" -- ,. ", { keepPackSizes: false })).toBe("");
  });
});
