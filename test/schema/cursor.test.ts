// Page cursors: what a client holds between pages. Each one issued reads back
// as the same position; anything else is told apart as another sort's cursor
// or one this API never issued (which the API refuses as a bad cursor).
import { describe, expect, it } from "vitest";
import { decodeCursor, decodeSortCursor, encodeCursor } from "../../src/schema/cursor.js";
import {
  byOptionalText,
  type ListOrder,
  NEWEST_FIRST_ORDER,
  UPDATED_AT,
} from "../../src/schema/sort-keys.js";

const ID = "0b7c7a52-3c3e-4b6b-9a53-0d5a2f1c9e11";
const CREATED = new Date("2026-03-04T05:06:07.089Z");
const BY_REFERENCE: ListOrder = {
  name: "REFERENCE",
  key: byOptionalText("reference", "Reference", "orders"),
  reverse: false,
};
const BY_UPDATE: ListOrder = { name: "UPDATED_AT", key: UPDATED_AT, reverse: false };

describe("a cursor issued by a page", () => {
  it("reads back as the row's position, for newest-first lists", () => {
    const cursor = encodeCursor({ createdAt: CREATED, id: ID });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt: CREATED, id: ID });
  });

  it("keeps the creation-time form clients already hold (`time|id`)", () => {
    const held = Buffer.from(`${CREATED.toISOString()}|${ID}`).toString("base64url");
    expect(encodeCursor({ createdAt: CREATED, id: ID })).toBe(held);
  });

  it("reads back for any sort key, a missing value included", () => {
    const cursor = encodeCursor({ id: ID, reference: "PO-7" }, BY_REFERENCE);
    expect(decodeSortCursor(cursor, BY_REFERENCE)).toEqual({
      kind: "position",
      position: { value: "PO-7", id: ID },
    });
    const none = encodeCursor({ id: ID, reference: null }, BY_REFERENCE);
    expect(decodeSortCursor(none, BY_REFERENCE)).toEqual({
      kind: "position",
      position: { value: null, id: ID },
    });
  });

  it("of another sort is told apart, so the error can say which sort it belongs to", () => {
    const cursor = encodeCursor({ id: ID, reference: "PO-7" }, BY_REFERENCE);
    expect(decodeSortCursor(cursor, NEWEST_FIRST_ORDER)).toEqual({ kind: "other-sort", name: "REFERENCE" });
    expect(decodeCursor(cursor)).toBeNull();
  });
});

describe("a cursor this API never issued", () => {
  const notIssued = (text: string, order: ListOrder = NEWEST_FIRST_ORDER) =>
    decodeSortCursor(Buffer.from(text).toString("base64url"), order).kind;

  it("is refused: not base64url, empty or too long", () => {
    expect(decodeSortCursor("", NEWEST_FIRST_ORDER).kind).toBe("not-issued");
    expect(decodeSortCursor("a+b/c=", NEWEST_FIRST_ORDER).kind).toBe("not-issued");
    expect(decodeSortCursor("A".repeat(4097), NEWEST_FIRST_ORDER).kind).toBe("not-issued");
  });

  it("is refused when its id or its value is not one a row could have", () => {
    expect(notIssued(`${CREATED.toISOString()}|not-a-uuid`)).toBe("not-issued");
    expect(notIssued(`${CREATED.toISOString()}|${ID.toUpperCase()}`)).toBe("not-issued");
    expect(notIssued(`2026-02-30T00:00:00.000Z|${ID}`)).toBe("not-issued");
    expect(notIssued(`0000-01-01T00:00:00.000Z|${ID}`)).toBe("not-issued");
    expect(notIssued(`${CREATED.toISOString()}|${ID}|extra`)).toBe("not-issued");
    expect(notIssued(JSON.stringify(["UPDATED_AT", null, ID]), BY_UPDATE)).toBe("not-issued");
    expect(notIssued(JSON.stringify(["lower case", "x", ID]))).toBe("not-issued");
    expect(notIssued("[not json")).toBe("not-issued");
  });
});
