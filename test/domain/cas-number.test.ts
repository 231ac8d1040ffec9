// CAS registry numbers, auto-match rule 1 of docs/design/decisions.md "Auto-match criteria":
// only a number whose check digit agrees is trusted.
import { describe, expect, it } from "vitest";
import { findCasNumbers, isValidCasNumber } from "../../src/domain/cas-number.js";

describe("isValidCasNumber", () => {
  it.each([
    ["7732-18-5", "water"],
    ["56-81-5", "glycerol"],
    ["7647-14-5", "sodium chloride"],
    ["151-21-3", "sodium lauryl sulfate"],
    ["1314-13-2", "zinc oxide"],
    ["9004-62-0", "hydroxyethyl cellulose"],
  ])("accepts %s (%s)", (cas) => {
    expect(isValidCasNumber(cas)).toBe(true);
  });

  it.each([
    ["56-81-6", "a wrong check digit"],
    ["7732-18-4", "a wrong check digit"],
    ["7732185", "no hyphens"],
    ["7-18-5", "one digit before the first hyphen"],
    ["12345678-18-5", "eight digits before the first hyphen"],
    ["7732-1-5", "one digit in the middle"],
    [" 7732-18-5", "surrounding space"],
    ["", "nothing"],
  ])("refuses %j (%s)", (cas) => {
    expect(isValidCasNumber(cas)).toBe(false);
  });
});

describe("findCasNumbers", () => {
  it("finds valid numbers in a name or code, in order, each once", () => {
    expect(findCasNumbers("Glycerin (CAS 56-81-5) / water 7732-18-5, again 56-81-5")).toEqual([
      "56-81-5",
      "7732-18-5",
    ]);
  });

  it("ignores a number with a wrong check digit", () => {
    expect(findCasNumbers("Glycerin 56-81-6")).toEqual([]);
  });

  it("reads the dashes word processors put in numbers as hyphens", () => {
    expect(findCasNumbers("Glycerin 56‐81‐5")).toEqual(["56-81-5"]);
    expect(findCasNumbers("Glycerin 56–81–5")).toEqual(["56-81-5"]);
  });

  it("does not cut a CAS number out of a longer run of digits", () => {
    expect(findCasNumbers("Ref 3-56-81-5")).toEqual([]);
    expect(findCasNumbers("Part 56-81-5-2")).toEqual([]);
  });
});
