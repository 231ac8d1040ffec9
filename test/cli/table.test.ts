// What the CLI's listings look like to an operator: aligned columns, numbers
// right-aligned, times in UTC to the second, and one line when there is nothing.
import { describe, expect, it } from "vitest";
import { formatTable, formatTimestamp, listing } from "../../src/cli/table.js";

describe("a CLI listing", () => {
  it("aligns each column to its widest cell, numbers to the right, without trailing spaces", () => {
    expect(
      formatTable(
        ["name", "keys", "note"],
        [
          ["Acme", 12, ""],
          ["Bo", 3, "x"],
        ],
      ),
    ).toBe("name  keys  note\nAcme    12\nBo       3  x\n");
  });

  it("writes times in UTC to the second, and - when there is none", () => {
    expect(formatTimestamp(new Date("2026-05-06T07:08:09.999Z"))).toBe("2026-05-06 07:08:09Z");
    expect(formatTimestamp(null)).toBe("-");
    expect(formatTimestamp(undefined)).toBe("-");
  });

  it("is one line saying so when there are no rows", () => {
    expect(listing([], "no buyers", ["id"], (row: { id: string }) => [row.id])).toBe("no buyers\n");
    expect(listing([{ id: "b1" }], "no buyers", ["id"], (row) => [row.id])).toBe("id\nb1\n");
  });
});
