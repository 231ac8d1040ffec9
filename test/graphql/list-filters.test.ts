// Narrowing the root lists: `filter` inputs and the `query:` search grammar
// (src/schema/list-query.ts, docs/reference/graphql.md "Searching with query"), each
// scoped to the key's buyer, and the clear errors bad searches get.
// A NUL character in a search is refused as a mistake in it, never as an
// unexpected error.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataModel } from "../../src/db/data-model.js";
import { contractSpelling } from "../../src/domain/contract-vocabulary.js";
import type { FieldProblem } from "../../src/domain/errors.js";
import { allOf, conditionSql, isValue } from "../../src/schema/conditions.js";
import { parseListQuery } from "../../src/schema/list-query.js";
import { SqlWriter } from "../../src/schema/planner/sql-writer.js";
import { type SeededBuyer, seedApprovals, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { databaseId } from "./database-ids.js";
import { marchDay, TEST_FILTERS } from "./declared-list-filter.js";
import { graphql, graphqlData } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

const day = (month: number, date: number) => new Date(Date.UTC(2025, month - 1, date, 9));

describe("filtering and searching root lists", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let secondSupplierId: string;
  /** The buyer's orders in seeding order (oldest first). */
  let orders: string[];
  let products: { glycerine: string; glycol: string; rose: string; dye: string };
  let approvals: string[];

  beforeAll(async () => {
    const { database } = harness;
    const { prisma } = database;
    buyer = await seedBuyer(database, "Filter");
    other = await seedBuyer(database, "Other");
    secondSupplierId = randomUUID();
    await prisma.supplier.create({ data: { id: secondSupplierId, name: "Second Supplier" } });
    await prisma.supplierConnection.create({
      data: { buyerId: buyer.buyerId, supplierId: secondSupplierId, relationship: "approved_supplier" },
    });
    orders = await seedOrders(database, buyer, [
      { createdAt: day(3, 1), orderStatus: "quote_selected", purchaseOrderReference: "PO-100" },
      {
        createdAt: day(3, 2),
        orderStatus: "order_placed",
        placedAt: day(3, 2),
        purchaseOrderReference: "PO-101",
      },
      {
        createdAt: day(3, 3),
        orderStatus: "shipped",
        supplierId: secondSupplierId,
        placedAt: day(3, 5),
        purchaseOrderReference: "PO-2",
      },
      {
        createdAt: day(3, 4),
        orderStatus: "delivered",
        supplierId: secondSupplierId,
        placedAt: day(3, 10),
        purchaseOrderReference: "po-105",
      },
      { createdAt: day(3, 5), orderStatus: "in_transit", placedAt: day(3, 10) },
      { createdAt: day(3, 6), orderStatus: "shipped", placedAt: day(4, 1), purchaseOrderReference: "XPO-1" },
    ]);
    await seedOrders(database, other, [{ createdAt: day(3, 1), purchaseOrderReference: "PO-1000" }]);

    const product = (
      id: string,
      fields: {
        rawMaterialName: string;
        rawMaterialCode?: string;
        productType: "Packaging" | "Fragrance" | "Dye";
        active?: boolean;
        priorityProduct?: boolean;
      },
    ) => ({
      id,
      buyerId: buyer.buyerId,
      productId: buyer.productId,
      measurementUnit: "kg" as const,
      ...fields,
    });
    products = {
      glycerine: buyer.buyerProductId,
      glycol: randomUUID(),
      rose: randomUUID(),
      dye: randomUUID(),
    };
    await prisma.buyerProduct.createMany({
      data: [
        product(products.glycol, {
          rawMaterialName: "Glycol Blend",
          rawMaterialCode: "GLY-2",
          productType: "Packaging",
          active: false,
          priorityProduct: true,
        }),
        product(products.rose, {
          rawMaterialName: "Rose Fragrance",
          rawMaterialCode: "FRG-1",
          productType: "Fragrance",
        }),
        product(products.dye, { rawMaterialName: "Blue Dye", productType: "Dye" }),
      ],
    });
    approvals = [
      buyer.approvalId,
      ...(await seedApprovals(database, buyer, [
        {
          approvalStatus: "pending",
          buyerProductId: products.rose,
          supplierId: secondSupplierId,
          supplierName: "Second Supplier",
          reference: "APP-20",
        },
      ])),
    ];
  });

  type Ids = { list: { totalCount: number; nodes: { id: string }[] } };
  async function listIds(field: string, args: string, variables: Record<string, unknown> = {}, types = "") {
    const data = await graphqlData<Ids>(
      harness.app,
      `query ${types ? `(${types})` : ""} { list: ${field}(${args}) { totalCount nodes { id } } }`,
      { key: buyer.apiKey, variables },
    );
    expect(data.list.totalCount).toBe(data.list.nodes.length);
    return data.list.nodes.map((node) => databaseId(node.id));
  }
  const orderIds = (query: string) => listIds("orders", "query: $query", { query }, "$query: String");
  /** Orders by seeding position, newest first as the list answers them. */
  const pick = (...positions: number[]) =>
    positions.sort((a, b) => b - a).map((position) => orders[position]);

  async function refusal(field: string, query: string) {
    const response = await graphql(
      harness.app,
      `query ($query: String) { ${field}(query: $query) { totalCount } }`,
      {
        key: buyer.apiKey,
        variables: { query },
      },
    );
    expect(response.data).toBeNull();
    const extensions = response.errors?.[0]?.extensions;
    expect(extensions?.code).toBe("VALIDATION_FAILED");
    const problems = extensions?.fieldErrors as { path: string[]; code: string; message: string }[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: ["query"], code: "invalid" });
    return problems[0]?.message ?? "";
  }

  describe("orders", () => {
    it("filters by supplier, placing day and status, together with the existing filters", async () => {
      expect(await listIds("orders", `filter: { supplierId: ["${secondSupplierId}"] }`)).toEqual(pick(2, 3));
      expect(
        await listIds("orders", `filter: { placedAtFrom: "2025-03-05", placedAtTo: "2025-03-10" }`),
      ).toEqual(pick(2, 3, 4));
      expect(
        await listIds(
          "orders",
          `filter: { supplierId: ["${buyer.supplierId}"], orderStatus: [SHIPPED, IN_TRANSIT], createdAtTo: "2025-03-05" }`,
        ),
      ).toEqual(pick(4));
    });

    it("refuses a placing range that ends before it starts, naming the field", async () => {
      const response = await graphql(
        harness.app,
        `{ orders(filter: { placedAtFrom: "2025-03-10", placedAtTo: "2025-03-01" }) { totalCount } }`,
        { key: buyer.apiKey },
      );
      expect(response.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_FAILED",
        fieldErrors: [{ path: ["filter", "placedAtFrom"], code: "invalid" }],
      });
    });

    it("searches order and purchase order references by prefix in any case, or exactly", async () => {
      // po-105 matches in any case; XPO-1 holds PO-1 but does not start with it; the other buyer's PO-1000 is not listed.
      expect(await orderIds("reference:PO-1*")).toEqual(pick(0, 1, 3));
      expect(await orderIds('reference:"PO-1*"')).toEqual(pick(0, 1, 3));
      expect(await orderIds("reference:PO-2")).toEqual(pick(2));
      expect(await orderIds("reference:ORD-4")).toEqual(pick(4));
      // A bare word is a reference prefix.
      expect(await orderIds("PO-10")).toEqual(pick(0, 1, 3));
      // LIKE's wildcards are plain characters in a search.
      expect(await orderIds("reference:%*")).toEqual([]);
      expect(await orderIds("reference:PO_*")).toEqual([]);
    });

    it("searches by supplier, status and days, every term narrowing further", async () => {
      expect(await orderIds(`supplier:${secondSupplierId}`)).toEqual(pick(2, 3));
      expect(await orderIds(`supplier:${secondSupplierId.toUpperCase()},${buyer.supplierId}`)).toEqual(
        pick(0, 1, 2, 3, 4, 5),
      );
      expect(await orderIds("status:shipped,DELIVERED")).toEqual(pick(2, 3, 5));
      expect(await orderIds("status:in_transit")).toEqual(pick(4));
      expect(await orderIds("placed:2025-03-10")).toEqual(pick(3, 4));
      expect(await orderIds("placed:2025-03-05..")).toEqual(pick(2, 3, 4, 5));
      expect(await orderIds("placed:..2025-03-02")).toEqual(pick(1));
      expect(await orderIds("created:2025-03-02..2025-03-03")).toEqual(pick(1, 2));
      expect(await orderIds("reference:PO-1* status:delivered")).toEqual(pick(3));
      expect(await orderIds(`  status:shipped   supplier:${buyer.supplierId} `)).toEqual(pick(5));
      // `filter` and `query` together: both must hold.
      expect(
        await listIds("orders", `query: "reference:PO-1*", filter: { supplierId: ["${buyer.supplierId}"] }`),
      ).toEqual(pick(0, 1));
    });

    it("sorts and pages a search like any list", async () => {
      const data = await graphqlData<{
        orders: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
      }>(
        harness.app,
        `{ orders(query: "reference:PO-1*", sortKey: PURCHASE_ORDER_REFERENCE, first: 2) {
          nodes { id } pageInfo { hasNextPage endCursor }
        } }`,
        { key: buyer.apiKey },
      );
      // By character code: "PO-100" < "PO-101" < "po-105".
      expect(data.orders.nodes.map((node) => databaseId(node.id))).toEqual([orders[0], orders[1]]);
      const next = await graphqlData<{ orders: { nodes: { id: string }[] } }>(
        harness.app,
        `query ($after: String) { orders(query: "reference:PO-1*", sortKey: PURCHASE_ORDER_REFERENCE, after: $after) { nodes { id } } }`,
        { key: buyer.apiKey, variables: { after: data.orders.pageInfo.endCursor } },
      );
      expect(next.orders.nodes.map((node) => databaseId(node.id))).toEqual([orders[3]]);
    });

    it("explains every malformed search, with where it went wrong", async () => {
      expect(await refusal("orders", "colour:red")).toMatch(
        /unknown key "colour".*reference, supplier, status, placed, created.*character 1/,
      );
      expect(await refusal("orders", 'status:shipped reference:"PO-1')).toMatch(/never closed.*character 26/);
      expect(await refusal("orders", "supplier:not-a-uuid")).toMatch(/"supplier:" must be one or more UUIDs/);
      expect(await refusal("orders", "status:lost")).toMatch(
        /"status:" must be one or more of quote_selected, .*delivered/,
      );
      expect(await refusal("orders", "status:shipped,")).toMatch(/"status:"/);
      expect(await refusal("orders", "placed:2025-13-01")).toMatch(/"placed:" must be a day/);
      expect(await refusal("orders", "placed:2025-03-10..2025-03-01")).toMatch(/ends before it starts/);
      expect(await refusal("orders", "reference:P*O")).toMatch(/\* only at the end/);
      expect(await refusal("orders", "reference:*")).toMatch(/at least one character before \*/);
      expect(await refusal("orders", "status:shipped status:delivered")).toMatch(
        /"status:" twice.*character 16/,
      );
      expect(await refusal("orders", "reference: PO-1")).toMatch(/no value after "reference:"/);
      expect(await refusal("orders", 'PO"1')).toMatch(/quote inside a word/);
      expect(await refusal("orders", "PO-1 ".repeat(11))).toMatch(/at most 10 terms/);
      expect(await refusal("orders", "x".repeat(501))).toMatch(/at most 500 characters/);
    });

    it("leaves the REST list as it was: its filters only, newest first", async () => {
      const rest = await callApi(harness.app, "GET", "/orders?order_status=shipped", { key: buyer.apiKey });
      expect(rest.status).toBe(200);
      expect((rest.body as { id: string }[]).map((order) => order.id)).toEqual(pick(2, 5));
    });
  });

  describe("buyer products", () => {
    const productIds = (args: string) => listIds("buyerProducts", `${args}, sortKey: NAME`);

    it("filters by type, use, priority and approvals", async () => {
      expect(await productIds("filter: { productType: [FRAGRANCE, DYE] }")).toEqual([
        products.dye,
        products.rose,
      ]);
      expect(await productIds("filter: { active: false }")).toEqual([products.glycol]);
      expect(await productIds("filter: { priorityProduct: true }")).toEqual([products.glycol]);
      expect(await productIds("filter: { hasApprovals: true }")).toEqual([products.glycerine, products.rose]);
      expect(await productIds("filter: { hasApprovals: false }")).toEqual([products.dye, products.glycol]);
      expect(await productIds("filter: { approvalStatus: [PENDING, PREFERRED] }")).toEqual([products.rose]);
      expect(await productIds("filter: { active: true, hasApprovals: false }")).toEqual([products.dye]);
    });

    it("searches names, codes, types and whether a product has approvals", async () => {
      const search = (query: string) => productIds(`query: ${JSON.stringify(query)}`);
      expect(await search("glyc")).toEqual([products.glycerine, products.glycol]);
      expect(await search("RAGR")).toEqual([products.rose]);
      expect(await search("name:glyc*")).toEqual([products.glycerine, products.glycol]);
      expect(await search('name:"Blue Dye"')).toEqual([products.dye]);
      expect(await search("code:gly-*")).toEqual([products.glycol]);
      expect(await search('type:"Raw Material"')).toEqual([products.glycerine]);
      expect(await search("type:packaging,DYE")).toEqual([products.dye, products.glycol]);
      expect(await search("approvals:no")).toEqual([products.dye, products.glycol]);
      expect(await search("approvals:yes glyc")).toEqual([products.glycerine]);
      expect(await search("%")).toEqual([]);
    });

    it("explains a bad search", async () => {
      expect(await refusal("buyerProducts", "approvals:maybe")).toMatch(/"approvals:" must be yes or no/);
      expect(await refusal("buyerProducts", "type:gas")).toMatch(
        /"type:" must be one or more of .*Raw Material/,
      );
      expect(await refusal("buyerProducts", "reference:PO-1")).toMatch(
        /unknown key "reference".*name, code, type, approvals/,
      );
    });
  });

  describe("approvals and the lists searched by name", () => {
    it("filters and searches approvals by supplier, product, status, reference and supplier name", async () => {
      const [seeded, pending] = approvals;
      const approvalIds = (args: string) => listIds("buyerProductApprovals", args);
      expect(await approvalIds(`filter: { supplierId: ["${secondSupplierId}"] }`)).toEqual([pending]);
      expect(await approvalIds(`query: "supplier:${buyer.supplierId}"`)).toEqual([seeded]);
      expect(await approvalIds(`query: "product:${products.rose}"`)).toEqual([pending]);
      expect(await approvalIds(`query: "status:PENDING,preferred"`)).toEqual([pending]);
      expect(await approvalIds(`query: "reference:app-*", sortKey: REFERENCE`)).toEqual([seeded, pending]);
      expect(await approvalIds(`query: "second"`)).toEqual([pending]);
      expect(await refusal("buyerProductApprovals", "status:approved,lost")).toMatch(/"status:"/);
    });

    it("searches tags, tag groups and suppliers by name", async () => {
      expect(await listIds("tags", `query: "name:tag*", sortKey: NAME`)).toEqual(buyer.tagIds);
      expect(await listIds("tags", `query: "1"`)).toEqual([buyer.tagIds[1]]);
      expect(await listIds("tagGroups", `query: "name:Compliance"`)).toEqual([buyer.tagGroupId]);
      expect(await listIds("suppliers", `query: "second"`)).toEqual([secondSupplierId]);
      expect(await listIds("suppliers", `query: "name:Filter*"`)).toEqual([buyer.supplierId]);
      expect(await refusal("tags", "category:x")).toMatch(/unknown key "category".*known keys: name/);
    });
  });

  describe("a list filter declared once (declared-list-filter.ts), planned and executed", () => {
    // The planner's SQL for each condition keeps the rows Prisma's `where` keeps, on the database the suite runs on.
    let declaring: SeededBuyer;

    beforeAll(async () => {
      declaring = await seedBuyer(harness.database, "Declared");
      const orders = await seedOrders(harness.database, declaring, [
        { createdAt: marchDay(1), orderStatus: "shipped", purchaseOrderReference: "PO-A_1" },
        { createdAt: marchDay(2), orderStatus: "delivered", purchaseOrderReference: "PO-B%2" },
        { createdAt: marchDay(3), orderStatus: "in_transit", purchaseOrderReference: "XPO-3" },
        { createdAt: marchDay(4), orderStatus: "shipped" },
      ]);
      const { prisma } = harness.database;
      await Promise.all(
        orders.map((id, index) =>
          prisma.order.update({
            where: { id },
            data: {
              updatedAt: marchDay(index + 1),
              supplierOrderReference: index % 2 ? `SUP-${index}` : null,
            },
          }),
        ),
      );
    });
    /** The ids Prisma's `where` keeps and those the planner's SQL for it keeps, each sorted. */
    async function bothWays(where: object): Promise<{ executed: string[]; planned: string[] }> {
      const scoped = allOf([isValue("buyerId", declaring.buyerId), where]);
      const executed = await harness.database.prisma.order.findMany({ where: scoped, select: { id: true } });
      const dataModel = readDataModel();
      const sql = new SqlWriter(dataModel, contractSpelling);
      const table = { model: sql.model("Order"), alias: sql.alias() };
      const text = `SELECT "${table.alias}"."id" FROM "${table.model.table}" "${table.alias}" WHERE ${conditionSql(scoped, table, sql)}`;
      const planned = await harness.database.query<{ id: string }>(text, sql.values);
      return {
        executed: executed.map(({ id }) => id).sort(),
        planned: planned.map(({ id }) => id).sort(),
      };
    }

    it.each([
      [{ updatedAtFrom: marchDay(2), updatedAtTo: marchDay(3) }, 2],
      [{ updatedAtTo: marchDay(1) }, 1],
      [{ statusAmong: ["shipped", "in_transit"] }, 3],
      [{ hasEvents: false }, 4],
      [{ hasEvents: true }, 0],
    ])("keeps the same rows planned and executed for the filter %o", async (filter, count) => {
      const problems: FieldProblem[] = [];
      const { executed, planned } = await bothWays(allOf(TEST_FILTERS.filterWhere(filter, problems)));
      expect(problems).toEqual([]);
      expect(executed).toHaveLength(count);
      expect(planned).toEqual(executed);
    });

    it.each([
      ["theirs:SUP-*", 2],
      ["theirs:sup-1", 0],
      ["updated:2025-03-02..", 3],
      ["state:SHIPPED,delivered", 3],
      ["po-b%", 1],
      ["a_1", 1],
      ["po", 3],
    ])("keeps the same rows planned and executed for the query %s", async (query, count) => {
      const problems: FieldProblem[] = [];
      const where = parseListQuery(query, TEST_FILTERS.grammar, problems);
      expect(problems).toEqual([]);
      const { executed, planned } = await bothWays(allOf(where ?? []));
      expect(executed).toHaveLength(count);
      expect(planned).toEqual(executed);
    });
  });
});

// A NUL character (U+0000) in a search: PostgreSQL text cannot hold one, so every list
// refuses it as a mistake in the search (VALIDATION_FAILED naming the character), never as an
// unexpected error; REST list parameters carrying one are refused as bad input too.
const LISTS = ["orders", "buyerProducts", "buyerProductApprovals", "suppliers", "tags", "tagGroups"];

/** A NUL in a bare word, in a key's value, in a quoted value; the 1-based position of the NUL. */
const SEARCHES: Record<string, { query: string; position: number }[]> = {
  orders: [
    { query: "PO\u00001", position: 3 },
    { query: "reference:PO-\u0000*", position: 14 },
  ],
  buyerProducts: [
    { query: "gly\u0000", position: 4 },
    { query: 'type:raw_material name:"Gly\u0000 col"', position: 28 },
  ],
  buyerProductApprovals: [
    { query: "\u0000", position: 1 },
    { query: "reference:\u0000", position: 11 },
  ],
  suppliers: [{ query: "name:Acme\u0000", position: 10 }],
  tags: [{ query: "red \u0000blue", position: 5 }],
  tagGroups: [{ query: 'name:"\u0000"', position: 7 }],
};

describe("a NUL character in a search", () => {
  let buyer: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Nul Searcher");
  });

  it.each(LISTS)("is VALIDATION_FAILED on %s, naming the character and where it is", async (list) => {
    for (const { query, position } of SEARCHES[list] ?? []) {
      const response = await graphql(
        harness.app,
        `query ($query: String) { ${list}(query: $query) { totalCount } }`,
        { key: buyer.apiKey, variables: { query } },
      );
      expect(response.status).toBe(200);
      expect(response.data).toBeNull();
      expect(response.errors).toHaveLength(1);
      const extensions = response.errors?.[0]?.extensions;
      expect(extensions?.code).toBe("VALIDATION_FAILED");
      expect(extensions?.fieldErrors).toEqual([
        {
          path: ["query"],
          code: "invalid",
          message: `must not contain the NUL character (U+0000) (at character ${position})`,
        },
      ]);
    }
  });

  it("in a REST list's parameters is refused as bad input, not as a server error", async () => {
    const paths = [
      "/orders?order_status=order_placed%00",
      "/orders?created_at_from=2025-01-01%00",
      "/orders?cursor=abc%00def",
      "/buyer_product_approvals?buyer_product_id=%00",
      "/buyer_product_approvals?approval_status=approved%00&limit=1",
      "/events?type=order.updated%00",
      "/events?created_at_to=%002025-01-01",
      "/webhook_endpoints?limit=1%00",
      "/webhook_endpoints?cursor=%00",
    ];
    for (const path of paths) {
      const response = await callApi(harness.app, "GET", path, { key: buyer.apiKey });
      expect({ path, status: response.status }).toEqual({ path, status: expect.toBeOneOf([400, 422]) });
    }
  });
});
