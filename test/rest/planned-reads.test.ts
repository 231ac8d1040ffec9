// Planned reads answer exactly as normal execution does: every REST read
// the planner compiles, and GraphQL documents over the same root reads with
// every sort, both page directions and every filter, run both ways over two
// generated buyers; the bytes must be the same. A planned statement never
// returns another buyer's row, and nothing a client sends reaches SQL text.
import { type DocumentNode, execute, Kind, type OperationDefinitionNode, parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../src/contract/routes.js";
import { readDataModel } from "../../src/db/data-model.js";
import { bodyOfOutcome, bodyOfResult, planRouteRead, type ReadBody } from "../../src/rest/planned-read.js";
import { toGraphQLVariable, type VariableProblem } from "../../src/rest/rest-spelling.js";
import { type RouteOperation, readRouteOperation } from "../../src/rest/route-operation.js";
import { encodeGlobalId } from "../../src/schema/global-ids.js";
import { schema } from "../../src/schema/index.js";
import { planGraphQLRead } from "../../src/schema/planner/graphql-read.js";
import {
  createReadPlanner,
  type PlannedRead,
  type ReadPlanner,
} from "../../src/schema/planner/read-planner.js";
import { contextOf, type GeneratedBuyer, generateTwoBuyers } from "../support/planned-reads.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const reads = routes
  .filter((route) => route.method === "GET")
  .map((route) => readRouteOperation(schema, route));
const entry = (operationId: string): RouteOperation => {
  const found = reads.find((candidate) => candidate.route.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
};

let database: TestDatabase;
let first: GeneratedBuyer;
let second: GeneratedBuyer;
let planner: ReadPlanner;
/** Every statement planned reads sent, with its parameters. */
const statements: { text: string; values: readonly (string | null)[] }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  [first, second] = await generateTwoBuyers(database);
  planner = createReadPlanner({
    schema,
    dataModel: readDataModel(),
    query: (text, values) => {
      statements.push({ text, values });
      return database.query(text, values);
    },
  });
}, 120_000);

afterAll(async () => {
  await database?.close();
});

function plannedOf(route: RouteOperation): PlannedRead {
  const plan = planRouteRead(planner, route);
  if ("reason" in plan) throw new Error(`${route.route.operationId} is not planned: ${plan.reason}`);
  return plan.planned;
}

/** The GraphQL variables a REST request makes, as the adapter makes them; null when it refuses them. */
function variablesOf(
  route: RouteOperation,
  params: Record<string, string>,
  search: URLSearchParams,
): Record<string, unknown> | null {
  const raw = route.variables(params, search, {});
  const problems: VariableProblem[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, type] of route.variableTypes) {
    const value = toGraphQLVariable(name, raw[name], type, problems);
    if (value !== undefined) values[name] = value;
  }
  return problems.length > 0 ? null : values;
}

/**
 * One REST read both ways, as `buyer`: the bodies (and next cursors) must be
 * the same bytes, and a request execution refuses must be refused by the
 * planned read too. Returns the body.
 */
async function restBothWays(
  operationId: string,
  buyer: GeneratedBuyer,
  request: { params?: Record<string, string>; query?: string },
): Promise<ReadBody | null | "refused"> {
  const route = entry(operationId);
  const variables = variablesOf(route, request.params ?? {}, new URLSearchParams(request.query ?? ""));
  if (!variables) return "refused";
  const executed = await route.execute(contextOf(database, buyer), variables);
  const read = plannedOf(route).prepare(variables, contextOf(database, buyer));
  const planned = read && { body: bodyOfOutcome(await read()) };
  const what = `${operationId} ${JSON.stringify(request)} as ${buyer.buyerId}`;
  if (executed.errors?.length || !executed.data) {
    expect(planned, `${what}: execution refused it (${executed.errors?.[0]?.message})`).toBeNull();
    return "refused";
  }
  const body = bodyOfResult(route, executed.data);
  expect(planned, `${what}: the planned read refused it`).not.toBeNull();
  expect(planned?.body?.json, what).toBe(body?.json);
  expect(planned?.body?.nextCursor, what).toBe(body?.nextCursor);
  return body;
}

/** Every page of a REST list, following `Link` cursors as a client does. */
async function restPages(operationId: string, buyer: GeneratedBuyer, query: string): Promise<number> {
  let cursor: string | null = null;
  let pages = 0;
  do {
    const search = new URLSearchParams(query);
    if (cursor) search.set("cursor", cursor);
    const body = await restBothWays(operationId, buyer, { query: search.toString() });
    if (body === "refused" || body === null) return pages;
    pages += 1;
    cursor = body.nextCursor;
  } while (cursor && pages < 40);
  return pages;
}

const BUYERS = () => [first, second];

describe("REST reads, planned and executed, answer the same bytes", () => {
  it("compiles every versioned GET route of orders, approvals and buyer products", () => {
    for (const operationId of [
      "listOrders",
      "listBuyerProductApprovals",
      "getOrder",
      "getBuyerProduct",
      "getBuyerProductApproval",
    ])
      expect(planRouteRead(planner, entry(operationId)), operationId).toHaveProperty("planned");
  });

  it("GET /orders: every page, every limit and filter, for both buyers", async () => {
    const queries = [
      "",
      "limit=1",
      "limit=7",
      "limit=500",
      "order_status[]=shipped&order_status[]=delivered",
      "order_status=quote_selected,order_placed",
      "order_status=in_port",
      "created_at_from=2025-01-01",
      "created_at_to=2025-06-15",
      "created_at_from=2025-01-01&created_at_to=2025-03-31&limit=3",
      "created_at_from=0001-01-01&created_at_to=9999-12-31",
      "created_at_from=2030-01-01",
    ];
    for (const buyer of BUYERS())
      for (const query of queries)
        expect(await restPages("listOrders", buyer, query), query).toBeGreaterThan(0);
  }, 300_000);

  it("GET /buyer_product_approvals: every page, status and buyer product, by UUID and global ID", async () => {
    for (const buyer of BUYERS()) {
      const other = buyer === first ? second : first;
      const [productId = "", anotherId = ""] = buyer.buyerProductIds;
      const queries = [
        "",
        "limit=4",
        "approval_status[]=approved&approval_status[]=preferred",
        "approval_status=pending",
        `buyer_product_id=${productId}`,
        `buyer_product_id=${anotherId.toUpperCase()}`,
        `buyer_product_id=${encodeGlobalId("BuyerProduct", anotherId)}`,
        `buyer_product_id=${other.buyerProductId}`,
        `buyer_product_id=${productId}&approval_status=approved,purchased&limit=2`,
      ];
      for (const query of queries)
        expect(await restPages("listBuyerProductApprovals", buyer, query), query).toBeGreaterThan(0);
    }
  }, 300_000);

  it("single reads: every record of both buyers, read by each buyer, and ids no one has", async () => {
    const reads = [
      ["getOrder", (buyer: GeneratedBuyer) => buyer.orderIds],
      ["getBuyerProduct", (buyer: GeneratedBuyer) => buyer.buyerProductIds],
      ["getBuyerProductApproval", (buyer: GeneratedBuyer) => buyer.approvalIds],
    ] as const;
    for (const [operationId, idsOf] of reads)
      for (const reader of BUYERS())
        for (const owner of BUYERS())
          for (const id of [...idsOf(owner), "00000000-0000-4000-8000-000000000000"]) {
            const body = await restBothWays(operationId, reader, { params: { id } });
            if (reader !== owner) expect(body).toBeNull();
          }
  }, 300_000);

  it("requests execution refuses are refused by planned reads, and answered by execution", async () => {
    const refused = [
      ["listOrders", "limit=0"],
      ["listOrders", "limit=501"],
      ["listOrders", "cursor=not-a-cursor"],
      ["listOrders", `cursor=${Buffer.from("2025-01-01T00:00:00.000Z|X").toString("base64url")}`],
      ["listOrders", "created_at_from=2025-02-01&created_at_to=2025-01-01"],
      [
        "listBuyerProductApprovals",
        `buyer_product_id=${encodeGlobalId("Order", "00000000-0000-4000-8000-000000000000")}`,
      ],
    ] as const;
    for (const [operationId, query] of refused)
      expect(await restBothWays(operationId, first, { query }), query).toBe("refused");
  });
});

/** GraphQL's own spelling: enum values by name, decimals as strings. */
const ORDER_NODE = `id: databaseId url supplierProfileId buyerProductApprovalId priceType quantity pricePerUom taxAmount
  taxPercentage priceTotal currency profileConnectionRelationship orderReference orderStatus
  purchaseOrderReference supplierOrderReference orderType { id typeOf } resourceValues { provider value }
  trackingType additionalData { product { buyerProductDisplayName } supplier { supplierName } }
  placedAt createdAt updatedAt deliverySite { id siteName address { street city state postcode country fullAddress } }
  approval { id approvalStatus supplier { id name } buyerProduct { rawMaterialName documentTypes } }`;
const APPROVAL_NODE = `databaseId approvalStatus supplierName catalogueParentDisplayName catalogueParentProductCode
  reference buyerProductId supplierProfileId createdAt updatedAt buyerProduct { databaseId productType containerType }
  supplier { id name }`;
const BUYER_PRODUCT_NODE = `databaseId rawMaterialName measurementUnit productType rawMaterialCode annualUsage
  typicalOrderSize frequency containerType targetApprovals priorityProduct active documentTypes
  resourceValues { provider value } createdAt updatedAt productId`;

function listDocument(
  field: string,
  sortKeys: string,
  filter: string,
  node: string,
): OperationDefinitionNode {
  const document: DocumentNode = parse(`query List($first: Int, $after: String, $last: Int, $before: String,
      $sortKey: ${sortKeys}, $reverse: Boolean, $filter: ${filter}, $query: String) {
    ${field}(first: $first, after: $after, last: $last, before: $before, sortKey: $sortKey, reverse: $reverse,
        filter: $filter, query: $query) {
      edges { node { ${node} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`);
  const [operation] = document.definitions;
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error("no operation");
  return operation;
}

interface Page {
  edges: { node: unknown }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** One page of a GraphQL list both ways; null when execution refuses the variables (and so must the planned read). */
async function graphqlPage(
  operation: OperationDefinitionNode,
  field: string,
  buyer: GeneratedBuyer,
  variables: Record<string, unknown>,
): Promise<Page["pageInfo"] | null> {
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation] };
  const plan = planGraphQLRead(planner, schema, document, operation, null);
  if ("reason" in plan) throw new Error(plan.reason);
  const what = `${field} ${JSON.stringify(variables)} as ${buyer.buyerId}`;
  const executed = await execute({
    schema,
    document,
    contextValue: contextOf(database, buyer),
    variableValues: variables,
  });
  const read = plan.planned.prepare(variables, contextOf(database, buyer));
  const planned = read && (await read());
  if (executed.errors?.length) {
    expect(planned, `${what}: execution refused it (${executed.errors[0]?.message})`).toBeNull();
    return null;
  }
  // The whole `data`, byte for byte, as Yoga would write the executed result's.
  expect(planned, what).toBe(JSON.stringify(executed.data));
  const page = executed.data?.[field] as Page;
  nodesCompared += page.edges.length;
  return page.pageInfo;
}

/** How many nodes the GraphQL comparisons compared, so that a test comparing only empty pages fails. */
let nodesCompared = 0;

/** Pages through a whole list forward (`first`/`after`) and backward (`last`/`before`). */
async function bothDirections(
  operation: OperationDefinitionNode,
  field: string,
  buyer: GeneratedBuyer,
  variables: Record<string, unknown>,
  size = 11,
): Promise<void> {
  for (const backward of [false, true]) {
    let cursor: string | null = null;
    for (let pages = 0; pages < 30; pages += 1) {
      const info = await graphqlPage(operation, field, buyer, {
        ...variables,
        ...(backward ? { last: size, before: cursor } : { first: size, after: cursor }),
      });
      if (!info) break;
      const more = backward ? info.hasPreviousPage : info.hasNextPage;
      cursor = backward ? info.startCursor : info.endCursor;
      if (!more || !cursor) break;
    }
  }
}

describe("GraphQL documents over the same root reads, planned and executed, answer the same", () => {
  it("orders: every sort key, both orders, both page directions, every filter and search key", async () => {
    const before = nodesCompared;
    const operation = listDocument("orders", "OrderSortKeys", "OrderFilter", ORDER_NODE);
    const sortKeys = [
      "CREATED_AT",
      "UPDATED_AT",
      "PLACED_AT",
      "ORDER_REFERENCE",
      "PURCHASE_ORDER_REFERENCE",
      "PRICE_TOTAL",
      "ID",
    ];
    for (const buyer of BUYERS()) {
      for (const sortKey of sortKeys)
        for (const reverse of [false, true])
          await bothDirections(operation, "orders", buyer, { sortKey, reverse });
      const filters: Record<string, unknown>[] = [
        { filter: { orderStatus: ["SHIPPED", "DELIVERED"] } },
        { filter: { supplierId: [buyer.supplierId] } },
        { filter: { supplierId: [encodeGlobalId("Supplier", buyer.unconnectedSupplierId)] } },
        { filter: { placedAtFrom: "2025-01-01", placedAtTo: "2025-12-31" } },
        { filter: { createdAtFrom: "2025-01-01" }, sortKey: "PLACED_AT" },
        { filter: { createdAtTo: "2025-06-15" }, sortKey: "PRICE_TOTAL", reverse: true },
        { query: "reference:ORD-1*" },
        { query: "reference:PO-2" },
        { query: "status:shipped,IN_TRANSIT" },
        { query: "placed:2025-01-01.." },
        { query: "created:..2025-06-30" },
        { query: `supplier:${buyer.supplierId}` },
        { query: "ord" },
        { query: "%_" },
        { query: '"\'; DROP TABLE orders; --"' },
        { query: "status:delivered", filter: { placedAtFrom: "2025-01-01" } },
      ];
      for (const variables of filters) await bothDirections(operation, "orders", buyer, variables, 7);
    }
    expect(nodesCompared - before).toBeGreaterThan(2000);
  }, 600_000);

  it("approvals: every sort key, both directions, every filter and search key", async () => {
    const before = nodesCompared;
    const operation = listDocument(
      "buyerProductApprovals",
      "BuyerProductApprovalSortKeys",
      "BuyerProductApprovalFilter",
      APPROVAL_NODE,
    );
    for (const buyer of BUYERS()) {
      for (const sortKey of ["CREATED_AT", "UPDATED_AT", "SUPPLIER_NAME", "REFERENCE", "ID"])
        for (const reverse of [false, true])
          await bothDirections(operation, "buyerProductApprovals", buyer, { sortKey, reverse }, 6);
      for (const variables of [
        { filter: { approvalStatus: ["APPROVED", "PENDING"] } },
        { filter: { buyerProductId: buyer.buyerProductIds[1] } },
        { filter: { supplierId: [buyer.supplierId] } },
        { query: "reference:APP-*" },
        { query: "status:approved,SAMPLE_REQUESTED" },
        { query: `product:${buyer.buyerProductIds[2]}` },
        { query: "a" },
      ])
        await bothDirections(operation, "buyerProductApprovals", buyer, variables, 4);
    }
    expect(nodesCompared - before).toBeGreaterThan(300);
  }, 600_000);

  it("buyer products: every sort key, both directions, filters through relations", async () => {
    const before = nodesCompared;
    const operation = listDocument(
      "buyerProducts",
      "BuyerProductSortKeys",
      "BuyerProductFilter",
      BUYER_PRODUCT_NODE,
    );
    for (const buyer of BUYERS()) {
      for (const sortKey of ["CREATED_AT", "UPDATED_AT", "NAME", "CODE", "ID"])
        for (const reverse of [false, true])
          await bothDirections(operation, "buyerProducts", buyer, { sortKey, reverse }, 4);
      for (const variables of [
        { filter: { productType: ["RAW_MATERIAL", "DYE"] } },
        { filter: { active: true, priorityProduct: false } },
        { filter: { hasApprovals: true } },
        { filter: { hasApprovals: false } },
        { filter: { approvalStatus: ["APPROVED"] } },
        { query: "type:raw_material approvals:no" },
        { query: "approvals:yes name:a*" },
        { query: "code:x" },
      ])
        await bothDirections(operation, "buyerProducts", buyer, variables, 5);
    }
    expect(nodesCompared - before).toBeGreaterThan(100);
  }, 600_000);
});

describe("tenancy and bound values", () => {
  it("no planned statement returns another buyer's row, whatever the request names", async () => {
    for (const [reader, owner] of [
      [first, second],
      [second, first],
    ] as const) {
      const seen: string[] = [];
      const keep = (body: ReadBody | null | "refused") => {
        if (body && body !== "refused") seen.push(body.json);
      };
      for (const id of owner.orderIds) keep(await restBothWays("getOrder", reader, { params: { id } }));
      for (const id of owner.approvalIds)
        keep(await restBothWays("getBuyerProductApproval", reader, { params: { id } }));
      for (const id of owner.buyerProductIds)
        keep(await restBothWays("getBuyerProduct", reader, { params: { id } }));
      for (const id of owner.buyerProductIds)
        keep(await restBothWays("listBuyerProductApprovals", reader, { query: `buyer_product_id=${id}` }));
      // The owner's cursors, handed to the reader's list.
      const ownersPage = await restBothWays("listOrders", owner, { query: "limit=3" });
      const cursor = ownersPage !== "refused" ? ownersPage?.nextCursor : null;
      if (cursor) keep(await restBothWays("listOrders", reader, { query: `limit=500&cursor=${cursor}` }));
      keep(await restBothWays("listOrders", reader, { query: "limit=500" }));
      const everything = seen.join("\n");
      for (const id of owner.ownIds) expect(everything).not.toContain(id);
      // The second buyer's own rows of the first buyer's suppliers: its connections.
      if (reader === first)
        expect(everything).not.toMatch(/second buyer's own relationship|only the second buyer's/);
    }
  }, 300_000);

  it("values a client sends reach SQL only as parameters", async () => {
    const hostile = [
      "'; DROP TABLE orders; --",
      "x') OR TRUE --",
      "$$x$$",
      "\\'",
      "ORD-1%' OR '1'='1",
      'a"b',
    ];
    const operation = listDocument("orders", "OrderSortKeys", "OrderFilter", ORDER_NODE);
    for (const text of hostile) {
      statements.length = 0;
      // A crafted cursor of a text sort key carries any text as its value.
      const cursor = Buffer.from(JSON.stringify(["ORDER_REFERENCE", text, first.orderIds[0]])).toString(
        "base64url",
      );
      await graphqlPage(operation, "orders", first, { first: 5, sortKey: "ORDER_REFERENCE", after: cursor });
      if (!text.includes('"')) {
        await graphqlPage(operation, "orders", first, { first: 5, query: `reference:"${text}"` });
        await graphqlPage(operation, "orders", first, { first: 5, query: `${text.replaceAll(" ", "")}*` });
      }
      expect(statements.length, text).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.text).not.toContain(text);
        expect(statement.text).not.toContain(text.replaceAll(" ", ""));
      }
      expect(statements.some((statement) => statement.values.includes(text))).toBe(true);
    }
  });
});
