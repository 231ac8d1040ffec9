// The word lists behind name normalisation and the similar-name guard, each
// as a buyer's product name meets it (docs/reference/auto-match.md).
import { describe, expect, it } from "vitest";
import {
  CATION_WORDS,
  DISTINCT_WORDS,
  HYDRATE_WORDS,
  KIND_ENDINGS,
  NAME_PIECES,
  PHARMACOPOEIA_TOKENS,
  WORD_SPELLINGS,
} from "../../src/domain/chemical-vocabulary.js";
import { normalizeName } from "../../src/domain/name-normalization.js";

const key = (name: string) => normalizeName(name, { keepPackSizes: false });

describe("the chemical vocabulary in names", () => {
  it.each([...WORD_SPELLINGS])("%s is spelled %s", (from, to) => {
    expect(key(`${from} Blend`)).toBe(`${to} blend`);
  });

  it.each([...HYDRATE_WORDS])("%sH2O is %s", (count, word) => {
    expect(key(`Magnesium Sulfate ${count}H2O`)).toBe(`magnesium sulfate ${word}`);
  });

  it.each([...PHARMACOPOEIA_TOKENS])("the grade %s is dropped", (token) => {
    expect(key(`Glycerin ${token}`)).toBe("glycerin");
  });

  it("a grade followed by a number is a trade name, and stays", () => {
    expect(key("EP 250")).toBe("ep 250");
  });

  it("a cation before or after the acid is one salt", () => {
    expect(key("Diclofenac Sodium")).toBe(key("Sodium Diclofenac"));
    expect(CATION_WORDS.has("disodium")).toBe(true);
  });

  it("a salt abbreviation, a symbol and an infix or prefix spelling are written out", () => {
    expect(key("Lidocaine HCl")).toBe("lidocaine hydrochloride");
    expect(key("EDTA Na salt")).toBe("sodium edta");
    expect(key("Disulphide")).toBe("disulfide");
    expect(key("Oestradiol")).toBe("estradiol");
  });
});

describe("the guard's lists", () => {
  it("hold lower-case single words, as normalised names are", () => {
    for (const word of [...DISTINCT_WORDS, ...NAME_PIECES]) expect(word).toMatch(/^[a-z]+$/);
  });

  it("read a longer ending before any ending it contains, so that amine is not read as ine", () => {
    const endings = KIND_ENDINGS.map(([ending]) => ending);
    endings.forEach((ending, index) => {
      const later = endings.slice(index + 1);
      for (const longer of later) expect(longer.endsWith(ending) && longer !== ending).toBe(false);
    });
  });
});
