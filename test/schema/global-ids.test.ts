// Global IDs as clients hold them (`Node.id`): the base64 of `<type>:<uuid>`,
// one spelling per record; anything else is not an id of ours.
import { describe, expect, it } from "vitest";
import { decodeGlobalId, encodeGlobalId, NODE_TYPES } from "../../src/schema/global-ids.js";

const UUID = "0b7c7a52-3c3e-4b6b-9a53-0d5a2f1c9e11";

describe("a global ID", () => {
  it("is the base64 of its type and UUID, as Relay servers write it, and reads back", () => {
    expect(encodeGlobalId("Order", UUID)).toBe(Buffer.from(`Order:${UUID}`).toString("base64"));
    for (const type of NODE_TYPES) {
      expect(decodeGlobalId(encodeGlobalId(type, UUID))).toEqual({ type, uuid: UUID });
    }
  });

  it("of an upper-case UUID reads as the stored, lower-case one", () => {
    expect(decodeGlobalId(encodeGlobalId("Supplier", UUID.toUpperCase()))).toEqual({
      type: "Supplier",
      uuid: UUID,
    });
  });

  it("is not ours when its type is not a node type, its UUID is not one, or it is not base64", () => {
    const encoded = (text: string) => Buffer.from(text).toString("base64");
    expect(decodeGlobalId(encoded(`Tag:${UUID}`))).toBeNull();
    expect(decodeGlobalId(encoded("Order:42"))).toBeNull();
    expect(decodeGlobalId(encoded(UUID))).toBeNull();
    expect(decodeGlobalId(UUID)).toBeNull();
    expect(decodeGlobalId("")).toBeNull();
    expect(decodeGlobalId("T3JkZXI6*")).toBeNull();
  });

  it("has one spelling: base64url or unpadded variants of it are refused", () => {
    const id = encodeGlobalId("BuyerProduct", UUID);
    expect(id.endsWith("=")).toBe(true);
    expect(decodeGlobalId(id.replace(/=+$/, ""))).toBeNull();
  });
});
