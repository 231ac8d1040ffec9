// The auto-match rules (docs/design/decisions.md, "Auto-match criteria"): what
// they compare, and how their hits rank into candidates.
import { describe, expect, it } from "vitest";
import {
  contradictingNameFound,
  matchKeys,
  type RuleHit,
  rankCandidates,
} from "../../src/domain/match-rules.js";

describe("match keys", () => {
  it("normalise the name and code, and take CAS numbers from the code, then the name, once each", () => {
    expect(
      matchKeys({
        rawMaterialName: "Glycerine USP 56-81-5 (250 kg drum)",
        rawMaterialCode: " GLY-01 / 56-81-5 / 7732-18-5 ",
        productType: "RawMaterial",
      }),
    ).toEqual({
      productType: "RawMaterial",
      normalizedName: "glycerin",
      normalizedCode: "gly-01 / 56-81-5 / 7732-18-5",
      casNumbers: ["56-81-5", "7732-18-5"],
    });
  });

  it("have an empty code and no CAS number when none is given", () => {
    const keys = matchKeys({ rawMaterialName: "Water", rawMaterialCode: null, productType: "RawMaterial" });
    expect(keys.normalizedCode).toBe("");
    expect(keys.casNumbers).toEqual([]);
  });

  it("keep a packaging's size, which is what it is", () => {
    const keys = matchKeys({ rawMaterialName: "HDPE Bottle 500 mL", productType: "Packaging" });
    expect(keys.normalizedName).toContain("500");
  });
});

describe("ranking", () => {
  const keys = matchKeys({ rawMaterialName: "Potassium Sorbate", productType: "RawMaterial" });
  const hit = (id: string, rule: number, name = "potassium sorbate", score = 1): RuleHit => ({
    id,
    rule,
    normalized_name: name,
    score,
  });

  it("orders by rule, names each product once under its first rule, and stops at the limit", () => {
    const hits = [hit("a", 1), hit("b", 2), hit("a", 3), hit("c", 4), hit("d", 4)];
    expect(rankCandidates(keys, hits, 3)).toEqual([
      { productId: "a", strategy: "cas_number", score: 1 },
      { productId: "b", strategy: "code", score: 1 },
      { productId: "c", strategy: "synonym", score: 1 },
    ]);
  });

  it("keeps a similar name's score to three decimals, and drops one the guard refuses", () => {
    const hits = [hit("s", 5, "potasium sorbate", 0.87654), hit("t", 5, "potassium sorbite", 0.9)];
    expect(rankCandidates(keys, hits, 10)).toEqual([
      { productId: "s", strategy: "similar_name", score: 0.877 },
    ]);
  });

  it("ignores a hit of a rule it does not know", () => {
    expect(rankCandidates(keys, [hit("x", 9)], 10)).toEqual([]);
  });
});

describe("a catalogue name contradicting a CAS number", () => {
  it("is the same name, or a similar one the guard accepts", () => {
    expect(contradictingNameFound("glycerin", [{ normalized_name: "anything", exact: true }])).toBe(true);
    expect(
      contradictingNameFound("potassium sorbate", [{ normalized_name: "potasium sorbate", exact: false }]),
    ).toBe(true);
    expect(contradictingNameFound("peg 40", [{ normalized_name: "peg 400", exact: false }])).toBe(false);
    expect(contradictingNameFound("glycerin", [])).toBe(false);
  });
});
