// The contract's values as GraphQL enum values: one spelling per value, the
// same in every API and document that names them.
import { describe, expect, it } from "vitest";
import { graphqlEnumName } from "../../src/schema/enum-names.js";

describe("a contract value as a GraphQL enum value", () => {
  it.each([
    ["Raw Material", "RAW_MATERIAL"],
    ["ISOTank", "ISO_TANK"],
    ["mL", "M_L"],
    ["quote_selected", "QUOTE_SELECTED"],
    ["IBC", "IBC"],
    ["kg", "KG"],
    ["Drum 200L", "DRUM_200_L"],
  ])("%s is %s", (contract, graphql) => {
    expect(graphqlEnumName(contract)).toBe(graphql);
  });

  it("is always a valid GraphQL name", () => {
    for (const value of ["Raw Material", "a-b", "x.y", "Über"]) {
      expect(graphqlEnumName(value), value).toMatch(/^[A-Z0-9_]+$/);
    }
  });
});
