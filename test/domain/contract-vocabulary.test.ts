// The contract's spelling of each enum value, which the database stores, the
// REST API answers and an import file must use.
import { describe, expect, it } from "vitest";
import {
  APPROVAL_STATUSES,
  CONTAINER_TYPES,
  contractSpelling,
  ORDER_STATUSES,
  PRODUCT_TYPES,
} from "../../src/domain/contract-vocabulary.js";

describe("the contract's spelling", () => {
  it("puts back the spaces an identifier cannot hold", () => {
    expect(contractSpelling("RawMaterial")).toBe("Raw Material");
    expect(contractSpelling("BulkBag")).toBe("Bulk Bag");
  });

  it("leaves every other value as it is", () => {
    expect(contractSpelling("Drum")).toBe("Drum");
    expect(contractSpelling("ISOTank")).toBe("ISOTank");
    expect(contractSpelling("order_placed")).toBe("order_placed");
  });

  it("lists each enum's values as the contract spells them", () => {
    expect(PRODUCT_TYPES).toEqual(["Dye", "Fragrance", "Other", "Packaging", "Raw Material"]);
    expect(CONTAINER_TYPES).toContain("Bulk Bag");
    expect(CONTAINER_TYPES).not.toContain("BulkBag");
    expect(ORDER_STATUSES[0]).toBe("quote_selected");
    expect(ORDER_STATUSES.at(-1)).toBe("delivered");
    expect(new Set(APPROVAL_STATUSES).size).toBe(APPROVAL_STATUSES.length);
  });
});
