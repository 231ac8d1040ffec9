// One declaration of a list filter drives every description of it
// (src/schema/list-filters.ts): a list declared only in
// declared-list-filter.ts gets its GraphQL input fields, its `query:` keys and
// its REST parameters from its filters, and words bad values as they do. That
// the planner's SQL for each condition keeps the rows Prisma's `where` keeps
// is in list-filters.test.ts.
import { printType } from "graphql";
import { describe, expect, it } from "vitest";
import type { FieldProblem } from "../../src/domain/errors.js";
import { builder } from "../../src/schema/builder.js";
import { parseListQuery } from "../../src/schema/list-query.js";
import { marchDay, TEST_FILTERS } from "./declared-list-filter.js";

describe("a list filter declared once", () => {
  it("gives the GraphQL input type its fields", () => {
    const type = builder.toSchema().getType("DeclaredOnlyInATestFilter");
    expect(type).toBeDefined();
    const printed = type ? printType(type) : "";
    expect(printed).toContain("updatedAtFrom: Date");
    expect(printed).toContain("updatedAtTo: Date");
    expect(printed).toContain("statusAmong: [OrderStatus!]");
    expect(printed).toContain("hasEvents: Boolean");
    expect(printed).not.toContain("theirs");
  });

  it("gives the `query:` grammar its keys, in the declared order", () => {
    expect(Object.keys(TEST_FILTERS.grammar.keys)).toEqual(["theirs", "updated", "state", "by"]);
    expect(TEST_FILTERS.keysSummary).toBe(
      "`theirs:` the supplier's reference; `updated:` day updated; `state:` status(es); `by:` supplier id(s)",
    );
  });

  it("gives REST its query parameters, feeding the input fields in the contract's spelling", () => {
    expect(
      TEST_FILTERS.restParameters({ updated_at_from: {}, status_among: { example: ["shipped"] } }),
    ).toEqual([
      {
        name: "updated_at_from",
        to: "filter.updated_at_from",
        description: "`YYYY-MM-DD`.",
        example: "2025-03-02",
      },
      { name: "status_among", to: "filter.status_among", example: ["shipped"] },
    ]);
    expect(() => TEST_FILTERS.restParameters({ has_events: {} })).toThrow(/has_events/);
  });

  it("words a bad value as the declaration's kind does", () => {
    const problems: FieldProblem[] = [];
    TEST_FILTERS.filterWhere({ updatedAtFrom: marchDay(3), updatedAtTo: marchDay(2) }, problems);
    parseListQuery("state:lost", TEST_FILTERS.grammar, problems);
    expect(problems).toEqual([
      { path: ["filter", "updatedAtFrom"], code: "invalid", message: "must not be later than the end date" },
      {
        path: ["query"],
        code: "invalid",
        message: expect.stringMatching(/^"state:" must be one or more of .*\(at character 1\)$/),
      },
    ]);
  });
});
