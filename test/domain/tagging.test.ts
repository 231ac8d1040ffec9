// Which records a buyer can tag, and which tag ids a call names that are not
// the buyer's, by their position. The statements are tested in
// test/services/order-update-and-tagging.test.ts.
import { describe, expect, it } from "vitest";
import {
  isTaggingRefusal,
  MAX_TAGS_PER_CALL,
  TAGGABLE_RECORDS,
  TAGGABLE_TYPES,
  unknownTagIndexes,
} from "../../src/domain/tagging.js";

describe("taggable records", () => {
  it("are buyer products, orders, approvals and supplier users", () => {
    expect(TAGGABLE_TYPES).toEqual(["BuyerProduct", "Order", "BuyerProductApproval", "SupplierUser"]);
  });

  it("a supplier user belongs to the buyer that created it; the others to their buyer", () => {
    expect(TAGGABLE_RECORDS.SupplierUser.buyerColumn).toBe("created_by_buyer_id");
    for (const type of ["BuyerProduct", "Order", "BuyerProductApproval"] as const) {
      expect(TAGGABLE_RECORDS[type].buyerColumn).toBe("buyer_id");
    }
  });

  it("a call names at most 100 tags", () => {
    expect(MAX_TAGS_PER_CALL).toBe(100);
  });
});

describe("unknown tags", () => {
  const mine = new Set(["t1", "t2"]);

  it("are named by their positions in the call, repeats included", () => {
    expect(unknownTagIndexes(["t1", "x", "t2", "y", "x"], mine)).toEqual([1, 3, 4]);
  });

  it("are none when every tag is the buyer's, or none is named", () => {
    expect(unknownTagIndexes(["t2", "t1", "t1"], mine)).toEqual([]);
    expect(unknownTagIndexes([], mine)).toEqual([]);
  });
});

describe("refusals", () => {
  it("are a missing record or unknown tags, never a success", () => {
    expect(isTaggingRefusal({ kind: "taggable_not_found" })).toBe(true);
    expect(isTaggingRefusal({ kind: "unknown_tags" })).toBe(true);
    expect(isTaggingRefusal({ kind: "attached" })).toBe(false);
    expect(isTaggingRefusal({ kind: "detached" })).toBe(false);
  });
});
