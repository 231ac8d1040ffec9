// decisions.md §3, lists: newest first with the id as tie-breaker, opt-in
// paging through `limit`, `cursor` and `Link: rel="next"`, date filters as
// inclusive whole UTC days, the three spellings of `order_status`, the
// approval filters, and a constant number of SQL statements per page.
// And the request schema as the server applies it: what it refuses, in lists and bodies.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEventData } from "../support/events.js";
import { eventually } from "../support/eventually.js";
import {
  ORDER_STATUS_VALUES,
  type OrderSeed,
  type SeededBuyer,
  seedApprovals,
  seedBuyer,
  seedBuyerProduct,
  seedOrders,
} from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, idsOf, listBody, nextLink, utc } from "./helpers.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

const STATUSES = ORDER_STATUS_VALUES;

interface Row {
  id: string;
  createdAt: Date;
}

/** created_at desc, then id desc: the order the contract's lists promise. */
function newestFirst(rows: Row[]): string[] {
  return [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((row) => row.id);
}

describe("REST v1 lists", () => {
  let buyer: SeededBuyer;
  let rows: Row[];
  const api = (path: string, key = buyer.apiKey) => callApi(harness.app, "GET", path, { key });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Lists");
    // 150 orders over 150 hours of 2025-06-01.., with runs of identical created_at.
    const seeds: OrderSeed[] = Array.from({ length: 150 }, (_, index) => {
      const hour = index < 20 ? 0 : index < 45 ? 7 : index < 60 ? 8 : index;
      return {
        createdAt: new Date(Date.UTC(2025, 5, 1, hour)),
        orderStatus: STATUSES[index % STATUSES.length],
        resourceValues:
          index % 3 === 0
            ? []
            : [
                { provider: "erp", value: `erp-${index}` },
                { provider: "wms", value: `wms-${index}` },
              ],
        purchaseOrderReference: `PO-${index}`,
        placedAt: index % 2 === 0 ? new Date(Date.UTC(2025, 5, 1, hour, 30)) : null,
      };
    });
    const ids = await seedOrders(harness.database, buyer, seeds);
    rows = ids.map((id, index) => ({ id, createdAt: seeds[index]?.createdAt ?? new Date(0) }));
  });

  describe("paging orders", () => {
    it("follows Link rel=next with limit=40 through all 150 orders, newest first, without gaps or repeats", async () => {
      const pages: string[][] = [];
      let next: string | null = "/orders?limit=40";
      while (next !== null) {
        const response = await api(next);
        expect(response.status).toBe(200);
        pages.push(idsOf(response));
        next = nextLink(response);
        if (next !== null) {
          expect(new URL(next).searchParams.getAll("limit")).toEqual(["40"]);
          expect(new URL(next).searchParams.getAll("cursor")).toHaveLength(1);
        }
        expect(pages.length).toBeLessThanOrEqual(4);
      }
      expect(pages.map((page) => page.length)).toEqual([40, 40, 40, 30]);
      expect(pages.flat()).toEqual(newestFirst(rows));
    });

    it("breaks ties of identical created_at by id, also across a page boundary", async () => {
      // The 25 orders at 07:00 straddle the boundary of pages of 10.
      const sameTime = rows.filter((row) => row.createdAt.getTime() === Date.UTC(2025, 5, 1, 7));
      expect(sameTime).toHaveLength(25);
      const all: string[] = [];
      let next: string | null = "/orders?limit=10&created_at_from=2025-06-01&created_at_to=2025-06-01";
      while (next !== null) {
        const response = await api(next);
        all.push(...idsOf(response));
        next = nextLink(response);
      }
      const firstDay = rows.filter((row) => row.createdAt.getTime() < Date.UTC(2025, 5, 2));
      expect(all).toEqual(newestFirst(firstDay));
      const positions = sameTime.map((row) => all.indexOf(row.id)).sort((a, b) => a - b);
      expect(positions.at(-1)! - positions[0]!).toBe(24);
    });

    it("returns 100 orders by default, with a Link to the rest", async () => {
      const response = await api("/orders");
      expect(listBody(response)).toHaveLength(100);
      const next = nextLink(response);
      expect(next).not.toBeNull();
      const rest = await api(next ?? "");
      expect(idsOf(rest)).toEqual(newestFirst(rows).slice(100));
      expect(nextLink(rest)).toBeNull();
    });

    it("returns everything without a Link when the limit covers it", async () => {
      for (const query of ["limit=500", "limit=150"]) {
        const response = await api(`/orders?${query}`);
        expect(idsOf(response)).toEqual(newestFirst(rows));
        expect(response.headers.get("link")).toBeNull();
      }
    });

    it("keeps the filters in the next link", async () => {
      const filtered = rows.filter((_, index) => index % STATUSES.length < 2);
      const ids: string[] = [];
      let next: string | null = "/orders?order_status[]=quote_selected&order_status[]=order_placed&limit=7";
      while (next !== null) {
        const response = await api(next);
        ids.push(...idsOf(response));
        next = nextLink(response);
        if (next !== null) {
          expect(new URL(next).searchParams.getAll("order_status[]")).toEqual([
            "quote_selected",
            "order_placed",
          ]);
        }
      }
      expect(ids).toEqual(newestFirst(filtered));
    });

    it("an empty list is [] with no Link", async () => {
      const response = await api("/orders?created_at_from=2030-01-01");
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
      expect(response.headers.get("link")).toBeNull();
    });

    it("a cursor used by another buyer shows only that buyer's orders", async () => {
      const first = await api("/orders?limit=1");
      const next = nextLink(first);
      const other = await seedBuyer(harness.database, "Lists Other");
      const response = await api(next ?? "", other.apiKey);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });
  });

  describe("filtering orders", () => {
    let dayBuyer: SeededBuyer;
    let ids: string[];

    beforeAll(async () => {
      dayBuyer = await seedBuyer(harness.database, "Days");
      ids = await seedOrders(harness.database, dayBuyer, [
        { createdAt: utc("2025-05-10", -1), orderStatus: "quote_selected" },
        { createdAt: utc("2025-05-10"), orderStatus: "order_placed" },
        { createdAt: new Date("2025-05-11T12:00:00.000Z"), orderStatus: "shipped" },
        { createdAt: utc("2025-05-13", -1), orderStatus: "delivered" },
        { createdAt: utc("2025-05-13"), orderStatus: "order_placed" },
      ]);
    });
    const days = (query: string) => api(`/orders?${query}`, dayBuyer.apiKey);

    it("treats created_at_from and created_at_to as whole UTC days, both included", async () => {
      const [beforeFrom, fromStart, middle, toEnd, afterTo] = ids;
      expect(idsOf(await days("created_at_from=2025-05-10&created_at_to=2025-05-12"))).toEqual([
        toEnd,
        middle,
        fromStart,
      ]);
      expect(idsOf(await days("created_at_from=2025-05-10"))).toEqual([afterTo, toEnd, middle, fromStart]);
      expect(idsOf(await days("created_at_to=2025-05-12"))).toEqual([toEnd, middle, fromStart, beforeFrom]);
      expect(idsOf(await days("created_at_from=2025-05-11&created_at_to=2025-05-11"))).toEqual([middle]);
    });

    it("accepts order_status[]=a&order_status[]=b, order_status=a,b and repeated order_status=a", async () => {
      const [, fromStart, middle, , afterTo] = ids;
      const expected = [afterTo, middle, fromStart];
      for (const query of [
        "order_status[]=order_placed&order_status[]=shipped",
        "order_status=order_placed,shipped",
        "order_status=order_placed&order_status=shipped",
        "order_status[]=shipped,order_placed",
        "order_status%5B%5D=order_placed&order_status%5B%5D=shipped",
      ]) {
        expect(idsOf(await days(query)), query).toEqual(expected);
      }
      expect(idsOf(await days("order_status=delivered"))).toEqual([ids[3]]);
      expect(idsOf(await days("order_status[]=in_port"))).toEqual([]);
    });

    it("combines status and date filters", async () => {
      const response = await days("order_status[]=order_placed&created_at_to=2025-05-12");
      expect(idsOf(response)).toEqual([ids[1]]);
    });

    it("ignores an empty order_status", async () => {
      expect(idsOf(await days("order_status="))).toHaveLength(5);
    });
  });

  describe("approvals", () => {
    let approvalBuyer: SeededBuyer;
    let otherProductId: string;
    let approvalIds: string[];

    beforeAll(async () => {
      approvalBuyer = await seedBuyer(harness.database, "Approvals");
      otherProductId = await seedBuyerProduct(harness.database, approvalBuyer, "Second product");
      approvalIds = await seedApprovals(harness.database, approvalBuyer, [
        { approvalStatus: "preferred", createdAt: new Date("2031-01-01T00:00:00.000Z") },
        { approvalStatus: "pending", createdAt: new Date("2031-01-02T00:00:00.000Z") },
        {
          approvalStatus: "pending",
          createdAt: new Date("2031-01-02T00:00:00.000Z"),
          buyerProductId: otherProductId,
        },
        { approvalStatus: "unapproved", createdAt: new Date("2031-01-03T00:00:00.000Z") },
        {
          approvalStatus: "preferred",
          createdAt: new Date("2031-01-04T00:00:00.000Z"),
          buyerProductId: otherProductId,
        },
      ]);
    });
    const list = (query = "") => api(`/buyer_product_approvals${query}`, approvalBuyer.apiKey);
    const seeded = () => [
      ...approvalIds.map((id, index) => ({
        id,
        createdAt: new Date(`2031-01-0${[1, 2, 2, 3, 4][index]}T00:00:00.000Z`),
      })),
    ];

    it("lists newest first, the seeded approval last", async () => {
      const response = await list();
      expect(idsOf(response)).toEqual([...newestFirst(seeded()), approvalBuyer.approvalId]);
    });

    it("filters by approval_status[] in every spelling", async () => {
      const [preferredOld, pendingA, pendingB, , preferredNew] = approvalIds;
      const pending = newestFirst(seeded().filter((row) => row.id === pendingA || row.id === pendingB));
      expect(idsOf(await list("?approval_status[]=pending"))).toEqual(pending);
      const expected = [preferredNew, ...pending, preferredOld, approvalBuyer.approvalId];
      for (const query of [
        "?approval_status[]=pending&approval_status[]=preferred&approval_status[]=approved",
        "?approval_status=pending,preferred,approved",
      ]) {
        expect(idsOf(await list(query))).toEqual(expected);
      }
      expect(idsOf(await list("?approval_status[]=inactive"))).toEqual([]);
    });

    it("filters by buyer_product_id, alone and with a status", async () => {
      const [, , pendingOther, , preferredOther] = approvalIds;
      expect(idsOf(await list(`?buyer_product_id=${otherProductId}`))).toEqual([
        preferredOther,
        pendingOther,
      ]);
      expect(idsOf(await list(`?buyer_product_id=${otherProductId}&approval_status[]=pending`))).toEqual([
        pendingOther,
      ]);
      expect(idsOf(await list(`?buyer_product_id=${buyer.buyerProductId}`))).toEqual([]);
    });

    it("pages with limit and Link like orders", async () => {
      const ids: string[] = [];
      let next: string | null = "/buyer_product_approvals?limit=2";
      let pages = 0;
      while (next !== null) {
        const response = await api(next, approvalBuyer.apiKey);
        ids.push(...idsOf(response));
        next = nextLink(response);
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(ids).toEqual([...newestFirst(seeded()), approvalBuyer.approvalId]);
    });

    it("refuses a broken cursor with 422 on cursor", async () => {
      const response = await list("?cursor=AAAA");
      expectProblem(response, 422, "validation_failed", [["cursor", "invalid"]]);
    });
  });

  describe("SQL statements per page", () => {
    async function countQueries(path: string): Promise<{ count: number; items: number; page: number }> {
      harness.resetQueries();
      const response = await api(path);
      expect(response.status).toBe(200);
      // The rate limiter sweeps old windows on a random one request in 500; that is not the page's cost.
      const statements = harness.queries.filter((sql) => !/DELETE FROM rate_limit_windows/i.test(sql));
      return {
        count: statements.length,
        items: listBody(response).length,
        page: statements.filter((sql) => !/api_keys|rate_limit_windows/.test(sql)).length,
      };
    }

    it("stay the same for 10 and 100 orders with every nested object, and few", async () => {
      // The first request of a key also stamps last_used_at beside the response.
      await api("/orders?limit=1");
      await eventually(
        async () =>
          (await harness.database.prisma.apiKey.findUniqueOrThrow({ where: { id: buyer.apiKeyId } }))
            .lastUsedAt,
      );
      const ten = await countQueries("/orders?limit=10");
      const hundred = await countQueries("/orders?limit=100");
      expect(ten.items).toBe(10);
      expect(hundred.items).toBe(100);
      expect(hundred.count).toBe(ten.count);
      // The key lookup with its rate-limit count, and the page with all its nested objects: one statement each.
      expect(hundred.count).toBe(2);
      expect(hundred.page).toBe(1);
      const filtered = await countQueries(
        "/orders?limit=100&order_status[]=shipped&created_at_from=2025-06-01",
      );
      expect(filtered.count).toBe(ten.count);
    });
  });
});

// decisions.md §3 "Requests and responses": the request schema is the
// server's rule. Null only where the contract clears a field with it, whole
// numbers of 32 bits refused as out of range, and an unknown query parameter
// refused rather than ignored, so that a misspelled filter never answers everything.
describe("the request schema as the server applies it", () => {
  let buyer: SeededBuyer;
  let placed: string;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(harness.app, method, path, { key: buyer.apiKey, body });

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Request schema");
    [placed = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-04-01T10:00:00.000Z"), orderStatus: "order_placed" },
      { createdAt: new Date("2025-04-02T10:00:00.000Z"), orderStatus: "delivered" },
    ]);
  });

  it("refuses a misspelled filter with 400 unknown_parameter naming the parameters the operation takes", async () => {
    const misspelled = await api("GET", "/orders?status=order_placed");
    const problem = expectProblem(misspelled, 400, "unknown_parameter");
    expect(problem.detail).toBe(
      "Unknown query parameter `status`: GET /api/public/buyer/v1/orders takes `limit`, `cursor`, `created_at_from`, `created_at_to`, `order_status[]`",
    );
    // The contract's forms of a list parameter are all known.
    for (const query of ["order_status[]=order_placed", "order_status=order_placed"]) {
      const listed = await api("GET", `/orders?${query}`);
      expect(listBody(listed).map((order) => order.id)).toEqual([placed]);
    }
    const onCreate = await api("POST", "/buyer_products?dry_run=true", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
    });
    expect(expectProblem(onCreate, 400, "unknown_parameter").detail).toBe(
      "Unknown query parameter `dry_run`: POST /api/public/buyer/v1/buyer_products takes no query parameters",
    );
    // Refused before anything is written.
    const products = await harness.database.prisma.buyerProduct.count({ where: { buyerId: buyer.buyerId } });
    expect(products).toBe(1);
  });

  it("refuses null in an optional field with 422 naming it, on a create as on an update", async () => {
    const create = await api("POST", "/buyer_products", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
      annual_usage: null,
      active: null,
      document_types: null,
    });
    expectProblem(create, 422, "validation_failed", [
      ["annual_usage", "invalid"],
      ["active", "invalid"],
      ["document_types", "invalid"],
    ]);
    const endpoint = await api("POST", "/webhook_endpoints", {
      url: "https://93.184.215.14/hooks",
      enabled_events: ["*"],
      description: null,
    });
    expectProblem(endpoint, 422, "validation_failed", [["description", "invalid"]]);
  });

  it("refuses redelivering to endpoint_id null, rather than sending the event to every endpoint", async () => {
    for (const url of ["https://93.184.215.14/a", "https://93.184.215.14/b"]) {
      const created = await api("POST", "/webhook_endpoints", { url, enabled_events: ["*"] });
      expect(created.status).toBe(201);
    }
    const id = randomUUID();
    const data = JSON.stringify(await orderEventData(harness.app, buyer.apiKey, placed, "order.updated"));
    await harness.database.prisma.webhookEvent.create({
      data: { id, buyerId: buyer.buyerId, type: "order.updated", createdAt: new Date(), data },
    });
    const refused = await api("POST", `/events/${id}/redeliver`, { endpoint_id: null });
    expectProblem(refused, 422, "validation_failed", [["endpoint_id", "invalid"]]);
    expect(await harness.database.prisma.webhookDelivery.count({ where: { eventId: id } })).toBe(0);
  });

  it("refuses a whole number past 32 bits as out of range, not as malformed", async () => {
    const response = await api("POST", "/buyer_products", {
      raw_material_name: "Glycerol",
      measurement_unit: "kg",
      product_type: "Raw Material",
      annual_usage: 2 ** 31,
      target_approvals: 2 ** 31 - 1,
    });
    const problem = expectProblem(response, 422, "validation_failed", [["annual_usage", "out_of_range"]]);
    expect(problem.errors?.[0]?.message).toBe("must be at most 2147483647");
  });
});
