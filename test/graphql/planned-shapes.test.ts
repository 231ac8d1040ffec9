// Which shapes of query document the planner answers from SQL rows, and,
// for each it does not, the reason /metrics counts it under. A shape moving
// from refused to planned shows here; its bytes are compared with
// execution's in test/graphql/planned-reads.test.ts.
import { Kind, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { readDataModel } from "../../src/db/data-model.js";
import { schema } from "../../src/schema/index.js";
import { planGraphQLRead } from "../../src/schema/planner/graphql-read.js";
import { createReadPlanner } from "../../src/schema/planner/read-planner.js";

// Planning needs the schema and the data model only; a plan's statements run
// when it is answered, so this planner is given no database to send them to.
const planner = createReadPlanner({
  schema,
  dataModel: readDataModel(),
  query: () => {
    throw new Error("a shape was run, not only planned");
  },
});

/** Each shape, a document showing it, and whether it plans (`planned`) or the reason it is refused. */
const SHAPES: readonly (readonly [shape: string, document: string, outcome: string])[] = [
  ["a page of columns", "{ orders(first: 2) { edges { node { id orderReference } } } }", "planned"],
  [
    "aliases",
    "{ list: orders(first: 2) { e: edges { n: node { ref: orderReference } } info: pageInfo { more: hasNextPage } } }",
    "planned",
  ],
  [
    "variables",
    "query ($first: Int, $after: String) { orders(first: $first, after: $after) { edges { node { id } } } }",
    "planned",
  ],
  [
    "relations and lists",
    "{ orders { edges { node { supplier { name } deliverySite { address { city } } resourceValues { value } } } } }",
    "planned",
  ],
  ["a record by id", "query ($id: UUID!) { order(id: $id) { id quantity } }", "planned"],
  ["__typename on a connection", "{ orders { __typename edges { node { id } } } }", "planned"],
  ["__typename on PageInfo", "{ orders { pageInfo { __typename } edges { node { id } } } }", "planned"],
  ["the same response key twice", "{ orders { edges { node { id id } } } }", "planned"],
  [
    "the same object twice, with different fields",
    "{ orders { edges { node { supplier { id } supplier { name } } } } }",
    "planned",
  ],
  ["totalCount", "{ orders(first: 2) { totalCount edges { node { id } } } }", "planned"],
  ["totalCount alone", "{ orders { totalCount } }", "planned"],
  ["an edge's cursor", "{ orders { edges { cursor node { id } } } }", "planned"],
  [
    "an edge's cursor and __typename, without its node",
    "{ orders { edges { cursor __typename } } }",
    "planned",
  ],
  ["an edge's node twice", "{ orders { edges { a: node { id } b: node { orderReference } } } }", "planned"],
  ["__typename on a node", "{ orders { edges { node { __typename id } } } }", "planned"],
  [
    "a fragment spread",
    "{ orders { edges { node { ...Order } } } } fragment Order on Order { id }",
    "planned",
  ],
  ["an inline fragment", "{ orders { edges { node { ... on Order { id } } } } }", "planned"],
  ["an inline fragment without a type", "{ orders { ... { edges { node { ... { id } } } } } }", "planned"],
  ["a fragment on an interface", "{ orders { edges { node { ... on Node { id } id } } } }", "planned"],
  [
    "fragments merged with fields",
    "query ($id: UUID!) { order(id: $id) { supplier { id } ...O } } fragment O on Order { supplier { name } ... on Order { id } }",
    "planned",
  ],
  [
    "@include",
    "query ($with: Boolean!) { orders { edges { node { id orderReference @include(if: $with) } } } }",
    "planned",
  ],
  ["@skip", "query ($without: Boolean!) { orders { edges { node { id @skip(if: $without) } } } }", "planned"],
  [
    "@skip and @include on fragments",
    "query ($a: Boolean!) { orders { edges { node { ...O @skip(if: true) ... @include(if: $a) { id } } } } } fragment O on Order { id }",
    "planned",
  ],
  [
    "node, with a fragment for each type",
    "query ($id: ID!) { node(id: $id) { __typename ... on Order { id orderStatus } ...S } } fragment S on Supplier { name }",
    "planned",
  ],
  [
    "a nested connection",
    "{ orders(first: 2) { edges { node { id events(first: 2) { edges { node { id } } } } } } }",
    "planned",
  ],
  [
    "nested connections paged by variables, one inside another",
    "query ($n: Int, $after: String) { buyerProductApprovals(first: 10) { nodes { id orders(first: $n, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } } } }",
    "planned",
  ],
  [
    "a nested connection in a nested connection, and one through a relation between",
    "{ buyerProducts { edges { node { approvals(first: 3) { totalCount nodes { orders(first: 1) { totalCount } } } orders { nodes { id } } } } } }",
    "planned",
  ],
  [
    "a tag group's tags",
    "{ tagGroups { nodes { tags(first: 2) { pageInfo { hasNextPage } nodes { name } } } } }",
    "planned",
  ],
  [
    "a supplier's users",
    "{ suppliers { nodes { users(first: 1) { totalCount nodes { id } } } } }",
    "planned",
  ],
  [
    "a nested connection below node and nodes",
    "query ($id: ID!, $ids: [ID!]!) { node(id: $id) { ... on Order { events(first: 1) { totalCount } } } nodes(ids: $ids) { ... on BuyerProductApproval { orders(first: 2) { nodes { id } } } } }",
    "planned",
  ],
  [
    "an edge's cursor in a nested connection",
    "{ orders { nodes { events(first: 2) { edges { cursor node { id } } } } } }",
    "planned",
  ],
  [
    "a nested connection's items selected both ways",
    "{ orders { nodes { events(first: 2) { nodes { id } edges { node { actor } } } } } }",
    "planned",
  ],
  [
    "a nested connection selected twice with other arguments",
    "{ orders { nodes { a: events(first: 1) { totalCount } b: events(first: 2) { totalCount } } } }",
    "planned",
  ],
  ["node", "query ($id: ID!) { node(id: $id) { id } }", "planned"],
  ["nodes", "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }", "planned"],
  [
    "nodes, with a fragment for a type and __typename",
    "query ($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on BuyerProduct { rawMaterialName } } }",
    "planned",
  ],
  [
    "two root fields",
    "{ orders { edges { node { id } } } buyerProducts { edges { node { id } } } }",
    "planned",
  ],
  [
    "one root field twice, aliased, with other arguments",
    "{ placed: orders(first: 5, filter: { orderStatus: [ORDER_PLACED] }) { totalCount } delivered: orders(first: 1) { totalCount } }",
    "planned",
  ],
  [
    "one root field twice under one key, its selections merged",
    "{ orders(first: 1, reverse: true) { totalCount } orders(reverse: true, first: 1) { nodes { id } } }",
    "planned",
  ],
  ["__typename at the root, alone", "{ __typename }", "planned"],
  ["__typename beside root fields", "{ a: __typename orders { totalCount } __typename }", "planned"],
  ["every root field skipped", "{ orders @skip(if: true) { totalCount } }", "planned"],
  [
    "a root field beside one that is not planned",
    '{ orders { totalCount } matchProduct(productType: OTHER, rawMaterialName: "Glycerin") { score } }',
    "root_field",
  ],
  [
    "the buyer's events and webhook endpoints, newest first, and one of each by id",
    "query ($id: UUID!) { events(first: 2) { nodes { id type data createdAt } pageInfo { endCursor } } webhookEndpoints { totalCount edges { cursor node { url enabledEvents status } } } event(id: $id) { data } webhookEndpoint(id: $id) { id } }",
    "planned",
  ],
  [
    "an order's buyer product, a supplier's relationship",
    "{ orders { nodes { buyerProduct { rawMaterialName resourceValues { value } } supplier { relationship } } } }",
    "planned",
  ],
  [
    "an endpoint's deliveries, the endpoint checked as the buyer's",
    "query ($id: UUID!, $after: String) { webhookDeliveries(endpointId: $id, first: 2, after: $after) { totalCount pageInfo { endCursor } edges { cursor node { id eventType status } } } }",
    "planned",
  ],
  [
    "the viewer's buyer and API key",
    "{ viewer { __typename buyer { id name } key: apiKey { prefix lastUsedAt } } }",
    "planned",
  ],
  [
    "matchProduct, which computes its candidates",
    '{ matchProduct(productType: OTHER, rawMaterialName: "Glycerin") { score } }',
    "root_field",
  ],
  [
    "every taggable record's tags, which name their records by id and type, and their groups",
    "query ($id: ID!) { orders { nodes { tags { id name tagGroup { name } } } } buyerProducts { nodes { tags { name } } } buyerProductApprovals { nodes { tags { __typename id } } } node(id: $id) { ... on SupplierUser { tags { category } } } }",
    "planned",
  ],
  [
    "a buyer product's approval counts, in a page and below another",
    "{ buyerProducts { nodes { approvalCounts { total approved sampleRequested unapproved __typename } } } orders { nodes { buyerProduct { approvalCounts { pending } } } } }",
    "planned",
  ],
  ["introspection", "{ __schema { queryType { name } } }", "introspection"],
  [
    "a list of enum values computed from a column",
    "{ orders(first: 2) { nodes { orderStatus allowedNextStatuses } } }",
    "planned",
  ],
  [
    "objects computed from a stored document, in a nested connection",
    "{ orders { nodes { events(first: 2) { nodes { changes { __typename field from to } } } } } }",
    "planned",
  ],
  [
    "a product, its name falling back to the buyer's name for it",
    "{ buyerProducts { nodes { product { name casNumber } } } }",
    "planned",
  ],
  [
    "an order's product through its approval, its name falling back",
    "query ($id: UUID!) { order(id: $id) { product { id name code } } }",
    "planned",
  ],
  ["the connection's nodes", "{ orders(first: 2) { nodes { id } pageInfo { hasNextPage } } }", "planned"],
  [
    "nodes beside edges { node }, and edges twice",
    "{ orders { nodes { id } edges { cursor node { supplier { name } } } more: edges { node { id } } } }",
    "planned",
  ],
];

describe("the shapes of query the planner answers", () => {
  it.each(SHAPES)("%s: %s → %s", (_shape, text, outcome) => {
    const document = parse(text);
    const [operation] = document.definitions;
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error("no operation");
    // As planned for the startup log: every `@skip`/`@include` on a variable keeping its selection.
    const plan = planGraphQLRead(planner, schema, document, operation, null);
    expect("planned" in plan ? "planned" : `${plan.refusal}`, "reason" in plan ? plan.reason : "").toBe(
      outcome,
    );
  });
});
