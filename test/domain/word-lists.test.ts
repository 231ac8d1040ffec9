// Alternatives as an error message names them.
import { describe, expect, it } from "vitest";
import { orList } from "../../src/domain/word-lists.js";

describe("orList", () => {
  it.each<[string[], string]>([
    [[], ""],
    [["a"], "a"],
    [["a", "b"], "a or b"],
    [["asc", "desc", "none"], "asc, desc or none"],
  ])("%j → %s", (words, sentence) => {
    expect(orList(words)).toBe(sentence);
  });
});
