// A NUL character (U+0000) in a search: PostgreSQL text cannot hold one, so every list
// refuses it as a mistake in the search (VALIDATION_FAILED naming the character), never as an
// unexpected error; REST list parameters carrying one are refused as bad input too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { graphql } from "./helpers.js";

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
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Nul Searcher");
  });
  afterAll(async () => {
    await harness?.close();
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
