// The guard on similar names: a trigram match is accepted only when the two
// names differ in ways that cannot change the substance.
import { describe, expect, it } from "vitest";
import { isSpellingOf, piecesOf, similarityVeto } from "../../src/domain/similarity-guard.js";

describe("similar names accepted", () => {
  it.each([
    ["sodium lauryl sulfate", "lauryl sulfate sodium", "word order"],
    ["hydroxyethyl cellulose", "hydroxyethylcellulose", "spacing"],
    ["sodium benzoate", "sodium benzoates", "a plural s"],
    ["potassium sorbate", "potasium sorbate", "a doubled letter"],
    ["sodium acetate", "sodium acetat", "an ending cut short"],
  ])("%s ~ %s (%s)", (query, candidate) => {
    expect(similarityVeto(query, candidate)).toBeNull();
  });
});

describe("similar names refused", () => {
  it.each([
    ["peg 40", "peg 400", "numbers_differ"],
    ["2 chloro 4 nitro", "4 chloro 2 nitro", "numbers_differ"],
    ["sodium laureth sulfate", "sodium lauryl sulfate", "words_differ"],
    ["cetyl alcohol", "cetearyl alcohol", "words_differ"],
    ["sodium sulfate", "sodium sulfite", "words_differ"],
    ["lactose", "lactase", "words_differ"],
    ["methylparaben", "ethylparaben", "words_differ"],
    ["citric acid", "citric acid anhydrous", "word_count_differs"],
    ["lysin", "lysine", "words_differ"],
    ["aaaaa bbbbb ccccc ddddd", "aaaaaa bbbbbb cccccc dddddd", "too_many_words_differ"],
  ])("%s vs %s: %s", (query, candidate, veto) => {
    expect(similarityVeto(query, candidate)).toBe(veto);
  });
});

describe("spellings of one word", () => {
  it("never a short word, nor one with a digit", () => {
    expect(isSpellingOf("zinc", "zincs")).toBe(false);
    expect(isSpellingOf("peg40", "peg400")).toBe(false);
  });

  it("a doubled letter inside a systematic piece changes the piece", () => {
    expect(piecesOf("diisopropyl")).not.toBe(piecesOf("disopropyl"));
    expect(isSpellingOf("disopropyl", "diisopropyl")).toBe(false);
  });
});
