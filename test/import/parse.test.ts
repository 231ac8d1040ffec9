// The first pass over an import file, before the database is read: every
// problem of its shape and fields, each named by its JSON path and worded for
// an operator, in the file's order.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseImportFile } from "../../src/import/parse.js";
import { formatProblem, sortProblems } from "../../src/import/problems.js";

const EXAMPLE = JSON.parse(
  readFileSync(new URL("../cli/fixtures/example.json", import.meta.url), "utf8"),
) as {
  buyers: Record<string, unknown>[];
  orders: Record<string, unknown>[];
};
const copy = () => structuredClone(EXAMPLE);
const problemsOf = (input: unknown) => sortProblems(parseImportFile(input).problems).map(formatProblem);

describe("an import file's shape", () => {
  it("of the documented example has no problem, and every record is read", () => {
    const { file, problems } = parseImportFile(EXAMPLE);
    expect(problems).toEqual([]);
    expect(file.buyers.map((entry) => entry.id)).toEqual(["00000000-0000-4000-8000-000000001001"]);
    expect(file.orders.every((entry) => entry.record !== null)).toBe(true);
  });

  it("must be one JSON object of version 1 with known top-level keys", () => {
    expect(problemsOf([])).toEqual(["the file must hold one JSON object"]);
    expect(problemsOf({ buyers: [] })).toEqual(["version: is required and must be 1"]);
    expect(problemsOf({ version: 2, customers: [] })).toEqual([
      "version: must be 1",
      expect.stringMatching(/^customers: unknown top-level key \(expected version, buyers, /),
    ]);
    expect(problemsOf({ version: 1, buyers: {} })).toEqual(["buyers: must be a list"]);
  });
});

describe("a record's fields", () => {
  it("are checked all at once, each problem by its path, worded for an operator", () => {
    const file = copy();
    const [buyer] = file.buyers;
    const [, order] = file.orders;
    if (!buyer || !order) throw new Error("the example has a buyer and two orders");
    buyer.id = "not-a-uuid";
    buyer.name = "";
    buyer.colour = "blue";
    order.order_status = "teleported";
    const problems = problemsOf(file);
    expect(problems).toContain("buyers[0].id: must be a UUID");
    expect(problems).toContain("buyers[0].name: must not be blank");
    expect(problems).toContain("buyers[0].colour: unknown field");
    expect(
      problems.find((problem) => problem.startsWith("orders[1].order_status: must be one of ")),
    ).toBeDefined();
    // In file order: buyers come before orders.
    expect(problems.findIndex((problem) => problem.startsWith("orders"))).toBeGreaterThan(
      problems.findIndex((problem) => problem.startsWith("buyers")),
    );
  });

  it("keep a malformed record's id, so references to it are not also reported as dangling", () => {
    const file = copy();
    const [buyer] = file.buyers;
    if (!buyer) throw new Error("the example has a buyer");
    buyer.name = 42;
    const { file: parsed, problems } = parseImportFile(file);
    expect(problems.map(formatProblem)).toEqual(["buyers[0].name: must be a string"]);
    expect(parsed.buyers[0]).toMatchObject({ id: "00000000-0000-4000-8000-000000001001", record: null });
  });
});
