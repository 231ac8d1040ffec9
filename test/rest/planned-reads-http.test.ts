// Planned reads as the service runs them: /metrics says how each REST read
// runs and why, a list is one statement, and a read the planned writer
// cannot write fails as execution would, and is counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { onPostgres } from "../support/test-database.js";

let test: TestApp;
let buyer: SeededBuyer;

beforeAll(async () => {
  test = await createTestApp();
  buyer = await seedBuyer(test.database, "Planned");
  await seedOrders(
    test.database,
    buyer,
    Array.from({ length: 5 }, (_, index) => ({
      createdAt: new Date(Date.UTC(2025, 0, 1 + index)),
      resourceValues: [{ provider: "erp", value: `E-${index}` }],
    })),
  );
});

afterAll(async () => {
  await test?.close();
});

async function metrics(): Promise<string> {
  return (await test.app.fetch("http://localhost/metrics")).text();
}

describe("planned REST reads", () => {
  it("/metrics names each REST read planned or executed, with why", async () => {
    const text = await metrics();
    for (const operation of [
      "listOrders",
      "getOrder",
      "listBuyerProductApprovals",
      "getBuyerProductApproval",
      "getBuyerProduct",
    ])
      expect(text).toContain(`rest_read_execution{operation="${operation}",execution="planned",reason=""} 1`);
    expect(text).toMatch(
      /rest_read_execution\{operation="listEvents",execution="executed",reason="it shows data the change log does not version"\} 1/,
    );
  });

  it("reads a page of orders, their resource values and names included, with one statement", async () => {
    test.resetQueries();
    const response = await callApi(test.app, "GET", "/orders?limit=3", { key: buyer.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
    expect(response.headers.get("link")).toMatch(/rel="next"/);
    const reads = test.queries.filter((sql) => /\bFROM "orders"/i.test(sql));
    expect(reads).toHaveLength(1);
    expect(test.queries.filter((sql) => /order_resource_values/.test(sql))).toEqual(reads);
  });

  it("fails a read whose rows it cannot write as execution would, and counts it", async () => {
    const failures = async () =>
      Number(
        /rest_planned_read_failures_total\{operation="listOrders"\} (\d+)/.exec(await metrics())?.[1] ?? 0,
      );
    // A time past 9999, written outside the API: no planned writer spells it as execution would.
    const updated = await test.database.query<{ id: string }>(
      `UPDATE orders SET created_at = '10000-01-01T00:00:00Z'
        WHERE id = (SELECT id FROM orders WHERE buyer_id = $1 ORDER BY created_at LIMIT 1) RETURNING id`,
      [buyer.buyerId],
    );
    expect(updated).toHaveLength(1);
    const before = await failures();
    const response = await callApi(test.app, "GET", "/orders?limit=2", { key: buyer.apiKey });
    // Execution's answer, as it would be without planned reads: it cannot write that time either.
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ code: "internal" });
    expect(await failures()).toBe(before + 1);
    // Pages without that row are answered from their plan again.
    const later = await callApi(test.app, "GET", "/orders?limit=2&created_at_to=2025-12-31", {
      key: buyer.apiKey,
    });
    expect(later.status).toBe(200);
    expect(await failures()).toBe(before + 1);
  });
});

describe.runIf(onPostgres)("planned statements on PostgreSQL", () => {
  it("keep their plans apart: executed reads are planned for their own values, as a search needs", async () => {
    const [row] = await test.database.reads.prisma.$queryRawUnsafe<{ mode: string }[]>(
      "SELECT current_setting('plan_cache_mode') AS mode",
    );
    expect(row?.mode).toBe("auto");
  });

  it("are planned once per connection, not again for every request", async () => {
    // One read connection, so that every request's statement meets the plan the ones before it left;
    // each asks a new page size, so that none is answered from the response cache.
    const single = await createTestApp({ database: { poolSize: 1 } });
    try {
      const seeded = await seedBuyer(single.database, "Planned");
      await seedOrders(
        single.database,
        seeded,
        [1, 2, 3].map((day) => ({ createdAt: new Date(Date.UTC(2025, 0, day)) })),
      );
      for (let request = 0; request < 12; request += 1) {
        const response = await callApi(single.app, "GET", `/orders?limit=${request + 1}`, {
          key: seeded.apiKey,
        });
        expect(response.status).toBe(200);
      }
      const plans = await single.database.reads.query<{ statement: string; generic: string; custom: string }>(
        "SELECT statement, generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements",
        [],
      );
      const page = plans.find((plan) => /FROM "orders"/.test(plan.statement));
      expect(page, "the orders page is a prepared statement").toBeDefined();
      expect({ generic: Number(page?.generic), custom: Number(page?.custom) }).toEqual({
        generic: 12,
        custom: 0,
      });
    } finally {
      await single.close();
    }
  });
});
