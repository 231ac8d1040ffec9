// How an import file's problems read to the operator who fixes the file: each
// named by its JSON path, worded as what to write instead (not as TypeScript
// names types), and listed in the file's order.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  formatProblem,
  type ImportProblem,
  issueMessage,
  jsonPath,
  problemsFromIssues,
  sortProblems,
} from "../../src/import/problems.js";

const record = z.strictObject({
  id: z.uuid(),
  name: z.string().trim().min(1).max(5),
  status: z.enum(["open", "closed"]),
  quantity: z.int().min(1),
  tags: z.array(z.string()).max(1),
  lines: z.array(z.object({ at: z.iso.datetime({ offset: true }) })),
});

/** The problems of `input` as one record of `orders` at `index`, as the operator reads them. */
function problemsOf(input: unknown, index = 3): string[] {
  const result = record.safeParse(input, { error: issueMessage });
  return result.success ? [] : problemsFromIssues(result.error.issues, ["orders", index]).map(formatProblem);
}

const valid = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Ada",
  status: "open",
  quantity: 2,
  tags: [],
  lines: [{ at: "2025-01-31T09:00:00.000Z" }],
};

describe("an import problem", () => {
  it("is named by the JSON path of the bad value", () => {
    expect(jsonPath(["orders", 3, "lines", 0, "at"])).toBe("orders[3].lines[0].at");
    expect(jsonPath([])).toBe("");
    expect(formatProblem({ path: "", message: "the file must hold one JSON object" })).toBe(
      "the file must hold one JSON object",
    );
  });

  it("says what to write instead, for each kind of wrong value", () => {
    expect(
      problemsOf({
        id: "not-a-uuid",
        name: "   ",
        status: "pending",
        quantity: 1.5,
        tags: ["a", "b"],
        lines: [{ at: "31/01/2025" }],
      }),
    ).toEqual([
      "orders[3].id: must be a UUID",
      "orders[3].name: must not be blank",
      "orders[3].status: must be one of open, closed",
      "orders[3].quantity: must be a whole number",
      "orders[3].tags: must have at most 1 items",
      "orders[3].lines[0].at: must be an ISO 8601 date-time with a time zone, such as 2025-01-31T09:00:00.000Z",
    ]);
    expect(problemsOf({ ...valid, name: "Adalbert", quantity: 0, lines: {} })).toEqual([
      "orders[3].name: must be at most 5 characters",
      "orders[3].quantity: must be at least 1",
      "orders[3].lines: must be a list",
    ]);
  });

  it("says a missing field is required, and names each unknown field", () => {
    const { name: _name, ...withoutName } = valid;
    expect(problemsOf({ ...withoutName, colour: "red", size: 2 })).toEqual([
      "orders[3].name: is required",
      "orders[3].colour: unknown field",
      "orders[3].size: unknown field",
    ]);
  });
});

describe("problems of a file", () => {
  it("are listed in the file's order: by top-level key as the format lists them, then by record", () => {
    const found: ImportProblem[] = [
      { path: "orders[10].id", message: "b" },
      { path: "orders[2].id", message: "a" },
      { path: "buyers[0].name", message: "c" },
      { path: "mystery", message: "unknown" },
      { path: "", message: "whole file" },
      { path: "orders[2].name", message: "a2" },
    ];
    expect(sortProblems(found).map((problem) => problem.message)).toEqual([
      "whole file",
      "c",
      "a",
      "a2",
      "b",
      "unknown",
    ]);
  });
});
