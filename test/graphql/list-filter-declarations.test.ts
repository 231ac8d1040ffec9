// One declaration of a list filter drives every description of it
// (src/schema/list-filters.ts): a list declared here only, on orders, gets
// its GraphQL input fields, its `query:` keys and its REST parameters from
// its filters, and the planner's SQL for each condition keeps the rows
// Prisma's `where` keeps, on the database the suite runs on.
import { printType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataModel } from "../../src/db/data-model.js";
import { OrderStatus } from "../../src/db/generated/prisma/enums.js";
import { contractSpelling } from "../../src/domain/contract-vocabulary.js";
import type { FieldProblem } from "../../src/domain/errors.js";
import { builder } from "../../src/schema/builder.js";
import { allOf, conditionSql, containsWord, isValue } from "../../src/schema/conditions.js";
import { OrderStatusEnum } from "../../src/schema/enums.js";
import {
  dayFilter,
  enumFilter,
  hasRelatedFilter,
  idFilter,
  listFilters,
  textFilter,
} from "../../src/schema/list-filters.js";
import { parseListQuery } from "../../src/schema/list-query.js";
import { SqlWriter } from "../../src/schema/planner/sql-writer.js";
import "../../src/schema/index.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

const TEST_FILTERS = listFilters({
  input: { name: "DeclaredOnlyInATestFilter", description: "A list filter declared by a test." },
  filters: [
    textFilter(["supplierOrderReference"], { name: "theirs", description: "the supplier's reference" }),
    dayFilter("updatedAt", {
      from: {
        name: "updatedAtFrom",
        description: "Only orders updated on or after this day.",
        rest: { description: "`YYYY-MM-DD`.", example: "2025-03-02" },
      },
      to: { name: "updatedAtTo", description: "Only orders updated on or before this day." },
      key: { name: "updated", description: "day updated" },
    }),
    enumFilter("orderStatus", {
      type: OrderStatusEnum,
      stored: Object.values(OrderStatus),
      field: { name: "statusAmong", description: "Only orders in one of these statuses.", rest: {} },
      key: { name: "state", description: "status(es)" },
    }),
    idFilter("supplierId", "Supplier", { key: { name: "by", description: "supplier id(s)" } }),
    hasRelatedFilter("events", {
      field: { name: "hasEvents", description: "Only orders with events (true) or without (false)." },
    }),
  ],
  word: containsWord("purchaseOrderReference"),
});

const day = (date: number) => new Date(Date.UTC(2025, 2, date, 9));

describe("a list filter declared once", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Declared");
    const orders = await seedOrders(harness.database, buyer, [
      { createdAt: day(1), orderStatus: "shipped", purchaseOrderReference: "PO-A_1" },
      { createdAt: day(2), orderStatus: "delivered", purchaseOrderReference: "PO-B%2" },
      { createdAt: day(3), orderStatus: "in_transit", purchaseOrderReference: "XPO-3" },
      { createdAt: day(4), orderStatus: "shipped" },
    ]);
    const { prisma } = harness.database;
    await Promise.all(
      orders.map((id, index) =>
        prisma.order.update({
          where: { id },
          data: { updatedAt: day(index + 1), supplierOrderReference: index % 2 ? `SUP-${index}` : null },
        }),
      ),
    );
  });
  afterAll(async () => {
    await harness?.close();
  });

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

  /** The ids Prisma's `where` keeps and those the planner's SQL for it keeps, each sorted. */
  async function bothWays(where: object): Promise<{ executed: string[]; planned: string[] }> {
    const scoped = allOf([isValue("buyerId", buyer.buyerId), where]);
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
    [{ updatedAtFrom: day(2), updatedAtTo: day(3) }, 2],
    [{ updatedAtTo: day(1) }, 1],
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

  it("words a bad value as the declaration's kind does", () => {
    const problems: FieldProblem[] = [];
    TEST_FILTERS.filterWhere({ updatedAtFrom: day(3), updatedAtTo: day(2) }, problems);
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
