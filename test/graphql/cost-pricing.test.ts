// How an operation is priced before it runs, from the page sizes it will
// really get: literal, variable or default `first`, through fragments and
// `@skip`/`@include`. The limit's refusal over HTTP is in cost.test.ts.
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { DEFAULT_GRAPHQL_LIMITS } from "../../src/config.js";
import { routes } from "../../src/contract/routes.js";
import { operationCost } from "../../src/graphql/cost.js";
import { schema } from "../../src/schema/index.js";

/** Three levels of order pages, each sized by `$n` (issue 15's reproduction). */
const NESTED_BY_VARIABLE = `query ($n: Int) {
  orders(first: $n) { edges { node { id buyerProduct { id
    orders(first: $n) { edges { node { id approval { id
      orders(first: $n) { edges { node { id } } } } } } } } } } }
}`;

const price = (document: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  operationCost(schema, parse(document), operationName, variables);

const costOf = (document: string, variables: Record<string, unknown> = {}) => {
  const priced = price(document, variables);
  if (priced.kind !== "priced") throw new Error(`not priced: ${priced.kind}`);
  return priced.cost;
};

describe("GraphQL operation pricing", () => {
  it("keeps every REST list's document, at the largest page REST asks for, under the default limit", () => {
    const lists = routes.filter((route) => route.document.includes("$first"));
    expect(lists.map((route) => route.operationId)).toEqual(
      expect.arrayContaining(["listOrders", "listBuyerProductApprovals"]),
    );
    for (const route of lists) {
      // A list under a path id (an endpoint's deliveries) takes that id too.
      const priced = operationCost(schema, parse(route.document), undefined, {
        first: 500,
        id: "c0ffee00-0000-4000-8000-000000000000",
      });
      expect(priced.kind, route.operationId).toBe("priced");
      if (priced.kind === "priced") {
        expect(priced.cost, route.operationId).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxCost);
      }
    }
  });

  it("prices issue 15's reproduction far over the limit and a default page of orders under it", () => {
    const nested = operationCost(schema, parse(NESTED_BY_VARIABLE), undefined, { n: 50 });
    expect(nested).toEqual({ kind: "priced", cost: 41_560_207 });
    const page = operationCost(
      schema,
      parse("{ orders { edges { node { id orderStatus } } } }"),
      undefined,
      {},
    );
    expect(page).toEqual({ kind: "priced", cost: 1_625 });
  });

  it("prices a page size passed as a variable as the same size written in the document", () => {
    const literal = NESTED_BY_VARIABLE.replace("($n: Int) ", "").replaceAll("$n", "50");
    expect(costOf(NESTED_BY_VARIABLE, { n: 50 })).toBe(costOf(literal));
    expect(costOf(NESTED_BY_VARIABLE, { n: 2 })).toBeLessThan(costOf(NESTED_BY_VARIABLE, { n: 50 }));
  });

  it("prices an omitted first at the default page size, and any size at most at the largest page", () => {
    expect(costOf("{ orders { edges { node { id } } } }")).toBe(
      costOf("{ orders(first: 100) { edges { node { id } } } }"),
    );
    // Sizes out of range are refused before any read, so they cost no more than the largest page.
    expect(costOf("{ orders(first: 100000) { edges { node { id } } } }")).toBe(
      costOf("{ orders(first: 500) { edges { node { id } } } }"),
    );
  });

  it("prices pages behind fragments and variables' defaults, and nothing @include leaves out", () => {
    const withFragments = `query ($n: Int = 60, $deep: Boolean!) { ...Page }
       fragment Page on Query { orders(first: $n) { edges { node { ...Product } } } }
       fragment Product on Order { buyerProduct { orders(first: $n) { edges { node { approval {
         orders(first: $n) @include(if: $deep) { totalCount edges { node { id } } } } } } } } }`;
    const deep = costOf(withFragments, { deep: true });
    expect(deep).toBeGreaterThan(DEFAULT_GRAPHQL_LIMITS.maxCost);
    expect(deep).toBe(costOf(withFragments, { n: 60, deep: true }));
    expect(costOf(withFragments, { deep: false })).toBeLessThan(deep / 10);
  });

  it("prices the operation that will run, when a document holds several", () => {
    const document = `query Small { orders(first: 1) { edges { node { id } } } }
      query Large { orders(first: 500) { edges { node { id } } } }`;
    const small = price(document, {}, "Small");
    const large = price(document, {}, "Large");
    expect(small.kind === "priced" && large.kind === "priced" && small.cost < large.cost).toBe(true);
  });

  it("leaves unpriced an operation whose variables do not fit their types: execution refuses it first", () => {
    expect(price(NESTED_BY_VARIABLE, { n: "fifty" })).toEqual({ kind: "invalid-variables" });
  });

  it("refuses to price a fragment bomb, whose expansion has too many selections", () => {
    const layers = ["fragment F0 on Order { id }"];
    for (let level = 1; level <= 16; level += 1) {
      layers.push(`fragment F${level} on Order { a: supplier { id } ...F${level - 1} ...F${level - 1} }`);
    }
    // Each level spreads the one below twice: 2^16 copies of the bottom.
    const bomb = `{ orders(first: 1) { edges { node { ...F16 } } } }\n${layers.join("\n")}`;
    expect(price(bomb).kind).toBe("unpriceable");
  });
});
