// The API key lookup every request sends is a named statement on PostgreSQL, parsed and planned once
// per connection (docs/design/performance.md, "What performance rests on"); DATABASE_NAMED_STATEMENTS=false sends it unnamed,
// for PgBouncer before 1.21 in transaction mode (docs/reference/operations.md, "PgBouncer").
import { describe, expect, it } from "vitest";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { seedBuyer } from "../support/seed.js";
import { callApi, createTestApp } from "../support/test-app.js";
import { onPostgres } from "../support/test-database.js";

describe.skipIf(!onPostgres)("the admission statement on PostgreSQL", () => {
  for (const namedStatements of [true, false]) {
    it(`is ${namedStatements ? "prepared once on the connection, as 'admission'" : "never prepared with named statements off"}, and counts every request`, async () => {
      // One connection, so that the statements prepared on it are the ones this test can see.
      const harness = await createTestApp({
        database: { poolSize: 1, namedStatements },
        rateLimitPerMinute: 100,
      });
      try {
        const buyer = await seedBuyer(harness.database);
        const remaining: number[] = [];
        await withinOneWindow();
        for (let index = 0; index < 3; index += 1) {
          const response = await callApi(harness.app, "GET", `/orders?limit=${index + 1}`, {
            key: buyer.apiKey,
          });
          expect(response.status).toBe(200);
          remaining.push(Number(response.headers.get("ratelimit-remaining")));
        }
        expect(remaining).toEqual([99, 98, 97]);

        const prepared = await harness.database.query<{ name: string }>(
          "SELECT name FROM pg_prepared_statements ORDER BY name",
          [],
        );
        expect(prepared.map((row) => row.name)).toEqual(namedStatements ? ["admission"] : []);
      } finally {
        await harness.close();
      }
    });
  }
});
