// Paging arguments as a list reads them: sizes within bounds, one end at a
// time, cursors of this list's sort only; every problem named by its argument.
import { describe, expect, it } from "vitest";
import type { FieldProblem } from "../../src/domain/errors.js";
import { encodeCursor } from "../../src/schema/cursor.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, readPageArgs } from "../../src/schema/page-window.js";
import { type ListOrder, UPDATED_AT } from "../../src/schema/sort-keys.js";

const ID = "0b7c7a52-3c3e-4b6b-9a53-0d5a2f1c9e11";
const CREATED = new Date("2026-03-04T05:06:07.089Z");

function read(args: Parameters<typeof readPageArgs>[0], order?: ListOrder) {
  const problems: FieldProblem[] = [];
  const page = readPageArgs(args, problems, order);
  return { page, problems };
}

describe("paging arguments", () => {
  it("default to the first page of the default size, newest first", () => {
    const { page, problems } = read({});
    expect(problems).toEqual([]);
    expect(page).toMatchObject({ size: DEFAULT_PAGE_SIZE, backward: false, after: null, before: null });
    expect(page.order.name).toBe("CREATED_AT");
  });

  it("read `last` as a page from the end", () => {
    expect(read({ last: 5 }).page).toMatchObject({ size: 5, backward: true });
  });

  it(`refuse a size outside 1 to ${MAX_PAGE_SIZE}, naming the argument`, () => {
    expect(read({ first: 0 }).problems).toEqual([
      { path: ["first"], code: "out_of_range", message: `must be 1 to ${MAX_PAGE_SIZE}` },
    ]);
    expect(read({ last: MAX_PAGE_SIZE + 1 }).problems.map((problem) => problem.path)).toEqual([["last"]]);
    expect(read({ first: MAX_PAGE_SIZE }).problems).toEqual([]);
  });

  it("refuse first and last together", () => {
    expect(read({ first: 2, last: 2 }).problems).toEqual([
      { path: ["last"], code: "invalid", message: "cannot be combined with first; give one of them" },
    ]);
  });

  it("take a cursor the list issued as the position to page from", () => {
    const cursor = encodeCursor({ createdAt: CREATED, id: ID });
    expect(read({ after: cursor }).page.after).toEqual({ value: CREATED, id: ID });
    expect(read({ last: 1, before: cursor }).page.before).toEqual({ value: CREATED, id: ID });
  });

  it("refuse a cursor never issued, and say which sort another sort's cursor belongs to", () => {
    expect(read({ after: "bm9wZQ" }).problems).toEqual([
      { path: ["after"], code: "invalid", message: "is not a cursor this API issued" },
    ]);
    const updatedCursor = encodeCursor(
      { id: ID, updatedAt: CREATED },
      { name: "UPDATED_AT", key: UPDATED_AT, reverse: false },
    );
    expect(read({ before: updatedCursor }).problems[0]?.message).toMatch(
      /^is a cursor of sortKey UPDATED_AT, not of CREATED_AT/,
    );
  });
});
