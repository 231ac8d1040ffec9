// Sorting and paging of the root lists: every sort key both ways, pages read
// forward (first/after) and backward (last/before) that together hold every
// row exactly once in the list's order, cursors that keep their place when
// rows are added, and cursors that belong to their sort key.
//
// Rows get fixed ids (`idOf`) so that ties on a sort value are broken in a
// known order. Text values differ only in letters and digits after a shared
// prefix, so that every collation orders them alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { databaseId } from "./database-ids.js";
import { answerStatements, graphql, graphqlData } from "./helpers.js";

/** A UUID whose order among these ids is the order of `n`. */
const idOf = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;
const at = (hours: number) => new Date(Date.UTC(2025, 5, 1, hours));

type Row = Record<string, unknown> & { id: string };

interface PageResult {
  edges: { cursor: string; node: Row }[];
  nodes: Row[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: number;
}

interface SortCase {
  key: string;
  /** The Prisma field holding the sort value. */
  field: string;
  direction: "asc" | "desc";
  kind?: "number";
}

interface ListCase {
  field: string;
  /** The Prisma delegate the sort values are read from, to check the order against. */
  model: "order" | "buyerProduct" | "buyerProductApproval" | "supplier" | "tag" | "tagGroup";
  enumName: string;
  /** Node fields selected: the id and every sort value. */
  selection: string;
  keys: SortCase[];
}

const CREATED: SortCase = { key: "CREATED_AT", field: "createdAt", direction: "desc" };
const UPDATED: SortCase = { key: "UPDATED_AT", field: "updatedAt", direction: "desc" };
const BY_ID: SortCase = { key: "ID", field: "id", direction: "asc" };
const NAME: SortCase = { key: "NAME", field: "name", direction: "asc" };

const LISTS: ListCase[] = [
  {
    field: "orders",
    model: "order",
    enumName: "OrderSortKeys",
    selection: "id orderReference",
    keys: [
      CREATED,
      UPDATED,
      { key: "PLACED_AT", field: "placedAt", direction: "desc" },
      { key: "ORDER_REFERENCE", field: "orderReference", direction: "asc" },
      { key: "PURCHASE_ORDER_REFERENCE", field: "purchaseOrderReference", direction: "asc" },
      { key: "PRICE_TOTAL", field: "priceTotal", direction: "desc", kind: "number" },
      BY_ID,
    ],
  },
  {
    field: "buyerProducts",
    model: "buyerProduct",
    enumName: "BuyerProductSortKeys",
    selection: "id rawMaterialName",
    keys: [
      CREATED,
      UPDATED,
      { key: "NAME", field: "rawMaterialName", direction: "asc" },
      { key: "CODE", field: "rawMaterialCode", direction: "asc" },
      BY_ID,
    ],
  },
  {
    field: "buyerProductApprovals",
    model: "buyerProductApproval",
    enumName: "BuyerProductApprovalSortKeys",
    selection: "id reference",
    keys: [
      CREATED,
      UPDATED,
      { key: "SUPPLIER_NAME", field: "supplierName", direction: "asc" },
      { key: "REFERENCE", field: "reference", direction: "asc" },
      BY_ID,
    ],
  },
  {
    field: "suppliers",
    model: "supplier",
    enumName: "SupplierSortKeys",
    selection: "id name",
    keys: [CREATED, NAME, UPDATED, BY_ID],
  },
  {
    field: "tags",
    model: "tag",
    enumName: "TagSortKeys",
    selection: "id name",
    keys: [CREATED, NAME, UPDATED, BY_ID],
  },
  {
    field: "tagGroups",
    model: "tagGroup",
    enumName: "TagGroupSortKeys",
    selection: "id name",
    keys: [CREATED, NAME, UPDATED, BY_ID],
  },
];

/** Ascending with nulls after every value, as the API documents; `desc` mirrors it all. */
function compareRows(a: Row, b: Row, sort: SortCase, reverse: boolean): number {
  const value = (row: Row) => {
    const raw = row[sort.field];
    if (raw === null || raw === undefined) return null;
    if (raw instanceof Date) return raw.toISOString();
    return sort.kind === "number" ? Number(String(raw)) : String(raw);
  };
  const [x, y] = [value(a), value(b)];
  let order = 0;
  if (x === null || y === null) order = x === y ? 0 : x === null ? 1 : -1;
  else order = x < y ? -1 : x > y ? 1 : 0;
  if (order === 0) order = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const descending = (sort.direction === "desc") !== reverse;
  return descending ? -order : order;
}

describe("sorting and paging root lists", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    const { prisma } = harness.database;
    buyer = await seedBuyer(harness.database, "Sorter");
    const common = {
      buyerId: buyer.buyerId,
      supplierId: buyer.supplierId,
      buyerProductApprovalId: buyer.approvalId,
      deliverySiteId: buyer.deliverySiteId,
      orderTypeId: buyer.orderTypeId,
      priceType: "ex_stock" as const,
      quantity: "1",
      pricePerUom: "1",
      taxAmount: "0",
      taxPercentage: "0",
      currency: "AUD",
      orderStatus: "order_placed" as const,
    };
    // Ties on every sort value, nulls in every nullable one.
    const orders: [number, number, number | null, string | null, string | null, string][] = [
      // created, updated, placed, order reference, PO reference, price total
      [0, 5, null, "ORD-B", "PO-10", "10.5"],
      [1, 5, 1, null, "PO-11", "200"],
      [1, 2, 1, "ORD-A", null, "10.5"],
      [2, 7, null, "ORD-A", "PO-10", "99.999999"],
      [3, 7, 2, null, null, "200"],
      [3, 1, 3, "ORD-C", "PO-2", "0"],
      [3, 8, null, "ORD-B", "PO-11", "1000000"],
      [4, 3, 3, "ORD-D", "PO-3", "10.5"],
      [5, 0, 4, "ORD-E", "PO-10", "3"],
    ];
    await prisma.order.createMany({
      data: orders.map(([created, updated, placed, reference, po, price], index) => ({
        ...common,
        id: idOf(10 * (index + 1)),
        createdAt: at(created),
        updatedAt: at(updated),
        placedAt: placed === null ? null : at(placed),
        orderReference: reference,
        purchaseOrderReference: po,
        priceTotal: price,
      })),
    });
    const products: [number, number, string | null, string | null][] = [
      [0, 3, "NAME-B", "CODE-2"],
      [1, 3, null, "CODE-1"],
      [1, 1, "NAME-A", null],
      [2, 4, "NAME-B", null],
      [2, 0, "NAME-C", "CODE-1"],
      [3, 2, null, "CODE-3"],
    ];
    await prisma.buyerProduct.createMany({
      data: products.map(([created, updated, name, code], index) => ({
        id: idOf(200 + index),
        buyerId: buyer.buyerId,
        productId: buyer.productId,
        rawMaterialName: name,
        rawMaterialCode: code,
        measurementUnit: "kg" as const,
        productType: "RawMaterial" as const,
        createdAt: at(created),
        updatedAt: at(updated),
      })),
    });
    const approvals: [number, number, string | null, string | null][] = [
      [0, 1, "SUPPLIER-B", "APP-3"],
      [1, 1, null, "APP-2"],
      [1, 4, "SUPPLIER-A", null],
      [2, 0, "SUPPLIER-B", "APP-2"],
      [3, 2, null, null],
      [3, 3, "SUPPLIER-C", "APP-1"],
    ];
    await prisma.buyerProductApproval.createMany({
      data: approvals.map(([created, updated, supplierName, reference], index) => ({
        id: idOf(300 + index),
        buyerId: buyer.buyerId,
        buyerProductId: buyer.buyerProductId,
        supplierId: buyer.supplierId,
        approvalStatus: "approved" as const,
        supplierName,
        reference,
        createdAt: at(created),
        updatedAt: at(updated),
      })),
    });
    const names = ["NAME-B", "NAME-A", "NAME-B", "NAME-C", "NAME-A"];
    await prisma.supplier.createMany({
      data: names.map((name, index) => ({
        id: idOf(400 + index),
        name,
        createdAt: at(index % 3),
        updatedAt: at(4 - (index % 2)),
      })),
    });
    await prisma.supplierConnection.createMany({
      data: names.map((_name, index) => ({
        buyerId: buyer.buyerId,
        supplierId: idOf(400 + index),
        relationship: "approved_supplier",
      })),
    });
    await prisma.tagGroup.createMany({
      data: names.map((name, index) => ({
        id: idOf(500 + index),
        buyerId: buyer.buyerId,
        name,
        createdAt: at(index % 2),
        updatedAt: at(index % 3),
      })),
    });
    await prisma.tag.createMany({
      data: names.map((name, index) => ({
        id: idOf(600 + index),
        buyerId: buyer.buyerId,
        tagGroupId: buyer.tagGroupId,
        name,
        category: "compliance",
        createdAt: at(index % 2),
        updatedAt: at(index % 3),
      })),
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** The rows as stored, with every sort value, read past the API. */
  async function storedRows(list: ListCase, ids: string[]): Promise<Row[]> {
    const delegate = (
      harness.database.prisma as unknown as Record<string, { findMany(query: object): Promise<Row[]> }>
    )[list.model];
    return (await delegate?.findMany({ where: { id: { in: ids } } })) ?? [];
  }

  async function page(list: ListCase, variables: Record<string, unknown>): Promise<PageResult> {
    const data = await graphqlData<Record<string, PageResult>>(
      harness.app,
      `query ($sortKey: ${list.enumName}!, $reverse: Boolean!, $first: Int, $after: String, $last: Int, $before: String) {
        list: ${list.field}(sortKey: $sortKey, reverse: $reverse, first: $first, after: $after, last: $last, before: $before) {
          totalCount
          edges { cursor node { ${list.selection} } }
          nodes { id }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        }
      }`,
      { key: buyer.apiKey, variables },
    );
    const result = data.list as PageResult;
    // `nodes` is `edges.node`, and the page's ends are its first and last cursors.
    expect(result.nodes.map((node) => databaseId(node.id))).toEqual(
      result.edges.map((edge) => databaseId(edge.node.id)),
    );
    expect(result.pageInfo.startCursor).toBe(result.edges[0]?.cursor ?? null);
    expect(result.pageInfo.endCursor).toBe(result.edges.at(-1)?.cursor ?? null);
    return result;
  }

  for (const list of LISTS) {
    for (const sort of list.keys) {
      for (const reverse of [false, true]) {
        it(`${list.field}(sortKey: ${sort.key}, reverse: ${reverse}) is sorted, and pages both ways hold every row once`, async () => {
          const all = await page(list, { sortKey: sort.key, reverse, first: 500 });
          const ids = all.edges.map((edge) => databaseId(edge.node.id));
          expect(ids.length).toBeGreaterThanOrEqual(5);
          expect(all.totalCount).toBe(ids.length);
          expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
          const stored = await storedRows(list, ids);
          expect(ids).toEqual(stored.sort((a, b) => compareRows(a, b, sort, reverse)).map((row) => row.id));

          const forward: string[] = [];
          let after: string | null = null;
          for (let pages = 1; pages <= 10; pages++) {
            const result: PageResult = await page(list, { sortKey: sort.key, reverse, first: 2, after });
            forward.push(...result.edges.map((edge) => databaseId(edge.node.id)));
            expect(result.pageInfo.hasPreviousPage).toBe(after !== null);
            expect(result.pageInfo.hasNextPage).toBe(forward.length < ids.length);
            if (!result.pageInfo.hasNextPage) break;
            after = result.pageInfo.endCursor;
          }
          expect(forward).toEqual(ids);

          const backward: string[] = [];
          let before: string | null = null;
          for (let pages = 1; pages <= 10; pages++) {
            const result: PageResult = await page(list, { sortKey: sort.key, reverse, last: 2, before });
            backward.unshift(...result.edges.map((edge) => databaseId(edge.node.id)));
            expect(result.pageInfo.hasNextPage).toBe(before !== null);
            expect(result.pageInfo.hasPreviousPage).toBe(backward.length < ids.length);
            if (!result.pageInfo.hasPreviousPage) break;
            before = result.pageInfo.startCursor;
          }
          expect(backward).toEqual(ids);
        });
      }
    }
  }

  it("keeps today's order when no sort is given: newest first, ties by id descending", async () => {
    const orders = LISTS[0] as ListCase;
    const data = await graphqlData<{ orders: { edges: { node: Row }[] } }>(
      harness.app,
      `{ orders(first: 500) { edges { node { ${orders.selection} } } } }`,
      { key: buyer.apiKey },
    );
    const sorted = await page(orders, { sortKey: "CREATED_AT", reverse: false, first: 500 });
    expect(data.orders.edges.map((edge) => databaseId(edge.node.id))).toEqual(
      sorted.edges.map((edge) => databaseId(edge.node.id)),
    );
    expect(data.orders.edges.map((edge) => databaseId(edge.node.id)).slice(0, 4)).toEqual([
      idOf(90),
      idOf(80),
      idOf(70),
      idOf(60),
    ]);
  });

  it("answers the rows between two cursors for `after` with `before`", async () => {
    const orders = LISTS[0] as ListCase;
    const all = await page(orders, { sortKey: "PRICE_TOTAL", reverse: false, first: 500 });
    const cursors = all.edges.map((edge) => edge.cursor);
    const ids = all.edges.map((edge) => databaseId(edge.node.id));
    const between = await page(orders, {
      sortKey: "PRICE_TOTAL",
      reverse: false,
      first: 10,
      after: cursors[1],
      before: cursors[5],
    });
    expect(between.edges.map((edge) => databaseId(edge.node.id))).toEqual(ids.slice(2, 5));
    expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const fromEnd = await page(orders, {
      sortKey: "PRICE_TOTAL",
      reverse: false,
      last: 2,
      after: cursors[1],
      before: cursors[5],
    });
    expect(fromEnd.edges.map((edge) => databaseId(edge.node.id))).toEqual(ids.slice(3, 5));
    expect(fromEnd.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it("refuses a cursor of another sort key, naming both keys, and `first` with `last`", async () => {
    const orders = LISTS[0] as ListCase;
    const byPrice = await page(orders, { sortKey: "PRICE_TOTAL", reverse: false, first: 2 });
    const response = await graphql(
      harness.app,
      `query ($after: String) { orders(sortKey: PLACED_AT, after: $after) { edges { node { id } } } }`,
      { key: buyer.apiKey, variables: { after: byPrice.pageInfo.endCursor } },
    );
    expect(response.data).toBeNull();
    const error = response.errors?.[0];
    expect(error?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(error?.extensions?.fieldErrors).toEqual([
      expect.objectContaining({
        path: ["after"],
        code: "invalid",
        message: expect.stringMatching(/PRICE_TOTAL.*PLACED_AT/),
      }),
    ]);
    // A cursor of the same key read in reverse is still a position in that sort.
    const reversed = await graphql(
      harness.app,
      `query ($before: String) { orders(sortKey: PRICE_TOTAL, reverse: true, before: $before) { edges { node { id } } } }`,
      { key: buyer.apiKey, variables: { before: byPrice.pageInfo.endCursor } },
    );
    expect(reversed.errors).toBeUndefined();

    const both = await graphql(harness.app, "{ orders(first: 2, last: 2) { edges { node { id } } } }", {
      key: buyer.apiKey,
    });
    expect(both.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["last"], code: "invalid" }],
    });
    const tooMany = await graphql(harness.app, "{ orders(last: 501) { edges { node { id } } } }", {
      key: buyer.apiKey,
    });
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["last"], code: "out_of_range" }],
    });
    const forged = await graphql(
      harness.app,
      `{ orders(before: "${Buffer.from('["PRICE_TOTAL","abc","x"]').toString("base64url")}") { totalCount } }`,
      {
        key: buyer.apiKey,
      },
    );
    expect(forged.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["before"], code: "invalid", message: "is not a cursor this API issued" }],
    });
  });

  it("answers `nodes` beside `edges` on nested connections too", async () => {
    const data = await graphqlData<{
      buyerProducts: {
        nodes: {
          id: string;
          approvals: {
            nodes: { id: string; supplier: { name: string } }[];
            edges: { node: { id: string } }[];
          };
        }[];
      };
    }>(
      harness.app,
      `{ buyerProducts(sortKey: ID, first: 50) {
          nodes { id approvals(first: 3) { nodes { id supplier { name } } edges { node { id } } } }
      } }`,
      { key: buyer.apiKey },
    );
    const seeded = data.buyerProducts.nodes.find(
      (product) => databaseId(product.id) === buyer.buyerProductId,
    );
    expect(seeded?.approvals.nodes.map((approval) => databaseId(approval.id))).toEqual(
      seeded?.approvals.edges.map((edge) => databaseId(edge.node.id)),
    );
    expect(seeded?.approvals.nodes).toHaveLength(3);
    expect(seeded?.approvals.nodes[0]?.supplier.name).toBe("Sorter Supplier");
  });

  it("answers `nodes` and `edges` in the same number of SQL statements, for 2 rows as for 7", async () => {
    const statements = async (selection: string, first: number) => {
      const query = `query ($first: Int) {
        orders(first: $first, sortKey: PRICE_TOTAL, query: "reference:ORD-*") {
          ${selection} { id supplier { name } approval { buyerProduct { rawMaterialName } } tags { name } }
        ${selection.startsWith("edges") ? "}" : ""} }
      }`;
      await graphqlData(harness.app, query, { key: buyer.apiKey, variables: { first } });
      harness.resetQueries();
      await graphqlData(harness.app, query, { key: buyer.apiKey, variables: { first } });
      return answerStatements(harness.queries).length;
    };
    const edges = await statements("edges { node", 7).then(async (seven) => [
      seven,
      await statements("edges { node", 2),
    ]);
    const viaNodes = [await statements("nodes", 7), await statements("nodes", 2)];
    expect(edges[0]).toBe(edges[1]);
    expect(viaNodes).toEqual(edges);
  });
});

describe("cursors when rows are added", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  const base = (id: string, created: number, price: string, placed: number | null) => ({
    id,
    buyerId: buyer.buyerId,
    supplierId: buyer.supplierId,
    buyerProductApprovalId: buyer.approvalId,
    deliverySiteId: buyer.deliverySiteId,
    orderTypeId: buyer.orderTypeId,
    priceType: "ex_stock" as const,
    quantity: "1",
    pricePerUom: "1",
    taxAmount: "0",
    taxPercentage: "0",
    currency: "AUD",
    orderStatus: "order_placed" as const,
    priceTotal: price,
    placedAt: placed === null ? null : at(placed),
    createdAt: at(created),
    updatedAt: at(created),
  });

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Stable");
  });
  afterAll(async () => {
    await harness?.close();
  });

  const sorts = [
    { key: "CREATED_AT", reverse: false },
    { key: "PRICE_TOTAL", reverse: false },
    { key: "PLACED_AT", reverse: true },
  ];
  for (const { key, reverse } of sorts) {
    it(`a ${key}${reverse ? " reversed" : ""} cursor goes on after its own row, whatever is inserted before it`, async () => {
      const { prisma } = harness.database;
      await prisma.order.deleteMany({ where: { buyerId: buyer.buyerId } });
      // Ten orders, every value tied with a neighbour; 1000 + 10·n ids.
      await prisma.order.createMany({
        data: Array.from({ length: 10 }, (_, n) =>
          base(
            idOf(1000 + 10 * n),
            Math.floor(n / 2),
            String(Math.floor(n / 2) * 10),
            n % 3 === 0 ? null : Math.floor(n / 2),
          ),
        ),
      });
      const query = `query ($after: String, $first: Int) {
        orders(sortKey: ${key}, reverse: ${reverse}, first: $first, after: $after) {
          edges { cursor node { id } } pageInfo { endCursor }
        }
      }`;
      type Orders = {
        orders: { edges: { cursor: string; node: { id: string } }[]; pageInfo: { endCursor: string } };
      };
      const ids = async (variables: Record<string, unknown>) =>
        (await graphqlData<Orders>(harness.app, query, { key: buyer.apiKey, variables })).orders;
      const before = await ids({ first: 100 });
      const cursorRow = 4;
      const cursor = before.edges[cursorRow]?.cursor;
      const rest = before.edges.slice(cursorRow + 1).map((edge) => databaseId(edge.node.id));
      const held = databaseId(before.edges[cursorRow]?.node.id ?? "");
      const heldIndex = (Number.parseInt(held.slice(-12), 10) - 1000) / 10;
      const heldRow = base(
        held,
        Math.floor(heldIndex / 2),
        String(Math.floor(heldIndex / 2) * 10),
        heldIndex % 3 === 0 ? null : Math.floor(heldIndex / 2),
      );

      // Rows tied with the cursor's row on every value, one id on each side of
      // its id, and a row that sorts first: only the row whose id sorts after
      // the held row's (in the list's direction) may appear after the cursor.
      const lower = idOf(Number.parseInt(held.slice(-12), 10) - 1);
      const higher = idOf(Number.parseInt(held.slice(-12), 10) + 1);
      await prisma.order.createMany({
        data: [{ ...heldRow, id: lower }, { ...heldRow, id: higher }, base(idOf(5000), 99, "9999", -50)],
      });
      const after = await ids({ first: 100, after: cursor });
      const now = (await ids({ first: 100 })).edges.map((edge) => databaseId(edge.node.id));
      // Every row after the held one now, and nothing before it.
      expect(after.edges.map((edge) => databaseId(edge.node.id))).toEqual(now.slice(now.indexOf(held) + 1));
      // The old rows after the cursor are all still there, in the same order.
      expect(after.edges.map((edge) => databaseId(edge.node.id)).filter((id) => rest.includes(id))).toEqual(
        rest,
      );
      // Exactly one of the two tied newcomers lands after the cursor.
      const newcomers = after.edges
        .map((edge) => databaseId(edge.node.id))
        .filter((id) => id === lower || id === higher);
      expect(newcomers).toHaveLength(1);
      expect(after.edges.map((edge) => databaseId(edge.node.id))).not.toContain(idOf(5000));
    });
  }
});
