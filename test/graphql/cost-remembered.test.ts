// A document sent again keeps its price while the values its price reads
// (page sizes, @skip/@include conditions) are the same, whatever its other
// variables hold; every answer is the one pricing the request alone gives.

import { buildSchema, isObjectType, parse } from "graphql";
import { createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_GRAPHQL_LIMITS } from "../../src/config.js";
import { costLimitPlugin, costReportPlugin, operationCost } from "../../src/graphql/cost.js";
import { schema } from "../../src/schema/index.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData } from "./helpers.js";

/** One order by its id, with a page of its product's orders sized by `$n`. */
const ORDER_DETAIL = `query OrderDetail($id: ID!, $n: Int) {
  node(id: $id) { id ... on Order { buyerProduct { orders(first: $n) { edges { node { id buyerProduct { id
    orders(first: $n) { edges { node { id } } } } } } } } } }
}`;

interface CostBody {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { requested: number; limit: number } };
}

describe("GraphQL prices remembered per document", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let orderIds: string[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Remembered");
    await seedOrders(harness.database, buyer, [
      { createdAt: new Date(Date.UTC(2025, 3, 1)) },
      { createdAt: new Date(Date.UTC(2025, 3, 2)) },
    ]);
    const listed = await graphqlData<{ orders: { edges: { node: { id: string } }[] } }>(
      harness.app,
      "{ orders { edges { node { id } } } }",
      { key: buyer.apiKey },
    );
    orderIds = listed.orders.edges.map((edge) => edge.node.id);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const send = async (query: string, variables: Record<string, unknown>) => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as CostBody };
  };
  /** The price of the request as the document alone would be priced with its values. */
  const alone = (query: string, variables: Record<string, unknown>) => {
    const priced = operationCost(schema, parse(query), undefined, variables);
    return priced.kind === "priced" ? priced.cost : undefined;
  };

  it("keeps the price across other ids, and prices a new page size anew", async () => {
    const [first, second] = orderIds;
    const sent = [
      { id: first, n: 3 },
      { id: second, n: 3 },
      { id: "T3JkZXI6bm9uZQ", n: 3 },
      { id: first, n: 20 },
      { id: second, n: 3 },
    ];
    const prices: (number | undefined)[] = [];
    for (const variables of sent) {
      const { body } = await send(ORDER_DETAIL, variables);
      prices.push(body.extensions?.cost?.requested);
    }
    expect(prices).toEqual(sent.map((variables) => alone(ORDER_DETAIL, variables)));
    const [small, otherId, unknownId, large, smallAgain] = prices;
    expect(otherId).toBe(small);
    expect(unknownId).toBe(small);
    expect(large).toBeGreaterThan(small ?? Number.POSITIVE_INFINITY);
    expect(smallAgain).toBe(small);
  });

  it("prices anew a page size or condition read only inside a fragment of a fragment", async () => {
    const document = `query ($id: ID!, $n: Int, $deep: Boolean = false) { node(id: $id) { ...Detail } }
      fragment Detail on Order { id ...Product }
      fragment Product on Order { buyerProduct { orders(first: $n) { edges { node { id
        buyerProduct @include(if: $deep) { orders(first: 5) { edges { node { id } } } } } } } } }`;
    const sent = [
      { id: orderIds[0], n: 2 },
      { id: orderIds[1], n: 2 },
      { id: orderIds[0], n: 9 },
      { id: orderIds[1], n: 9, deep: true },
      { id: orderIds[0], n: 2 },
    ];
    const prices: (number | undefined)[] = [];
    for (const variables of sent)
      prices.push((await send(document, variables)).body.extensions?.cost?.requested);
    expect(prices).toEqual(sent.map((variables) => alone(document, variables)));
    expect(new Set(prices).size).toBe(3);
  });

  it("prices a field left out for a null argument as left out, after the same document priced it in", async () => {
    // A default lets a nullable variable stand where the argument must not be null; null then drops the field.
    const document = `query ($id: ID = "T3JkZXI6bm9uZQ") {
      node(id: $id) { ... on Order { buyerProduct { orders(first: 50) { edges { node { id } } } } } }
    }`;
    const set = await send(document, { id: orderIds[0] });
    const nulled = await send(document, { id: null });
    expect(nulled.body.extensions?.cost?.requested).toBe(alone(document, { id: null }));
    expect(nulled.body.extensions?.cost?.requested).toBeLessThan(
      set.body.extensions?.cost?.requested ?? Number.POSITIVE_INFINITY,
    );
  });

  it("answers variables that do not fit their types with graphql-js's error, after valid ones were priced", async () => {
    const priced = await send(ORDER_DETAIL, { id: orderIds[0], n: 3 });
    expect(priced.body.extensions?.cost?.requested).toEqual(expect.any(Number));
    const wrongSize = await send(ORDER_DETAIL, { id: orderIds[0], n: "x" });
    const missingId = await send(ORDER_DETAIL, { n: 3 });
    const wrongId = await send(ORDER_DETAIL, { id: true, n: 3 });
    for (const refused of [wrongSize, missingId, wrongId]) {
      expect(refused.body.data ?? null).toBeNull();
      expect(refused.body.errors?.map((error) => error.extensions?.code)).not.toContain(
        "COST_LIMIT_EXCEEDED",
      );
      expect(refused.body.extensions?.cost).toBeUndefined();
    }
    expect(wrongSize.body.errors?.[0]?.message).toMatch(/^Variable "\$n" got invalid value "x"/);
    expect(missingId.body.errors?.[0]?.message).toBe(
      'Variable "$id" of required type "ID!" was not provided.',
    );
    expect(wrongId.body.errors?.[0]?.message).toMatch(/^Variable "\$id" got invalid value true/);
  });

  it("refuses a page size over the limit after the same document ran with a small one", async () => {
    const small = await send(ORDER_DETAIL, { id: orderIds[0], n: 2 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.extensions?.cost?.requested).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxCost);
    const large = await graphql(harness.app, ORDER_DETAIL, {
      key: buyer.apiKey,
      variables: { id: orderIds[1], n: 500 },
    });
    expect(large.status).toBe(400);
    expect(large.errors?.map((error) => error.extensions?.code)).toEqual(["COST_LIMIT_EXCEEDED"]);
    expect(large.errors?.[0]?.extensions?.cost).toEqual({
      requested: alone(ORDER_DETAIL, { id: orderIds[1], n: 500 }),
      limit: DEFAULT_GRAPHQL_LIMITS.maxCost,
    });
  });
});

describe("The cost limit on its own, over a schema of graphql-js's own", () => {
  // Its Item type only pricing reads: `node` answers null, and Yoga parses
  // and validates the document once. Execution words variable errors here.
  const itemSchema = buildSchema(`
    type Query { node(id: ID!): Item }
    type Item { id: ID! items(first: Int): ItemConnection }
    type ItemConnection { edges: [ItemEdge] pageInfo: PageInfo }
    type ItemEdge { node: Item }
    type PageInfo { hasNextPage: Boolean }
  `);
  const item = itemSchema.getType("Item");
  let itemFieldReads = 0;
  if (isObjectType(item)) {
    const getFields = item.getFields.bind(item);
    item.getFields = () => {
      itemFieldReads += 1;
      return getFields();
    };
  }
  const yoga = createYoga({
    schema: itemSchema,
    plugins: [costLimitPlugin(DEFAULT_GRAPHQL_LIMITS), costReportPlugin()],
    graphiql: false,
    logging: false,
  });
  const document = `query ($id: ID!, $n: Int) {
    node(id: $id) { id items(first: $n) { edges { node { items(first: $n) { edges { node { id } } } } } } }
  }`;
  const send = async (variables: Record<string, unknown>) => {
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: document, variables }),
    });
    return (await response.json()) as CostBody;
  };
  /** How often the request's pricing read the Item type's fields. */
  const itemReadsOf = async (variables: Record<string, unknown>) => {
    const before = itemFieldReads;
    expect((await send(variables)).data).toEqual({ node: null });
    return itemFieldReads - before;
  };

  it("prices a document once per page size, not once per id", async () => {
    await itemReadsOf({ id: "a", n: 5 });
    expect(await itemReadsOf({ id: "b", n: 5 })).toBe(0);
    expect(await itemReadsOf({ id: "c", n: 6 })).toBeGreaterThan(0);
    expect(await itemReadsOf({ id: "d", n: 6 })).toBe(0);
  });

  it("leaves variables that do not fit their types to execution, after the same page size was priced", async () => {
    const refused = await send({ id: "a", n: 500 });
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(["COST_LIMIT_EXCEEDED"]);
    const priced = await send({ id: "a", n: 5 });
    expect(priced.extensions?.cost?.requested).toEqual(expect.any(Number));
    for (const n of [500, 5]) {
      const missingId = await send({ n });
      expect(missingId).toEqual({
        errors: [
          expect.objectContaining({ message: 'Variable "$id" of required type "ID!" was not provided.' }),
        ],
      });
      const wrongId = await send({ id: true, n });
      expect(wrongId.errors?.[0]?.message).toMatch(/^Variable "\$id" got invalid value true/);
      expect(wrongId.extensions).toBeUndefined();
    }
  });
});
