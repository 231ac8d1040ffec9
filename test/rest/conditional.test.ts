// Conditional and cached reads (docs/design/decisions.md §9), and the ETags of
// each record type a read can show; If-Match on PATCH is in order-update.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

const CREATED_AT = new Date("2025-04-01T08:00:00.000Z");
const TAG = /^"\d+-[0-9a-f]{16}"$/;
/** What the rate limit leaves the key after this response. */
const remaining = (response: { headers: Headers }) => Number(response.headers.get("ratelimit-remaining"));

describe("conditional requests", () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;
  const get = (path: string, headers: Record<string, string> = {}, key = buyer.apiKey) =>
    callApi(harness.app, "GET", path, { key, headers });
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    callApi(harness.app, "PATCH", `/orders/${id}`, { key: buyer.apiKey, body, headers });
  /** SQL statements a request sent, beside the rate limiter's occasional sweep and the last-used stamp. */
  async function statementsOf(request: () => Promise<unknown>): Promise<string[]> {
    harness.resetQueries();
    await request();
    return harness.queries.filter((sql) => !/DELETE FROM rate_limit_windows|last_used_at =/i.test(sql));
  }

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Conditional");
    other = await seedBuyer(harness.database, "Other");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: CREATED_AT },
      { createdAt: CREATED_AT },
    ]);
  });

  it("tags every read strongly and lets the client keep it only while revalidating", async () => {
    const response = await get("/orders?limit=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toMatch(TAG);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("link")).toContain("cursor=");
  });

  it("answers a current If-None-Match with 304: no body, one statement, not counted", async () => {
    await withinOneWindow();
    const first = await get("/orders?limit=2");
    const etag = first.headers.get("etag") ?? "";
    let again: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(async () => {
      again = await get("/orders?limit=2", { "if-none-match": etag });
    });
    expect(again?.status).toBe(304);
    expect(again?.text).toBe("");
    expect(again?.headers.get("etag")).toBe(etag);
    expect(again?.headers.get("cache-control")).toBe("private, no-cache");
    // Only the admission statement ran: no GraphQL operation, no count.
    expect(statements).toHaveLength(1);
    expect(remaining(again ?? first)).toBe(remaining(first));
    // A list of tags, or the tag in its weak form, names it too.
    expect(
      (await get("/orders?limit=2", { "if-none-match": `"1-0000000000000000", W/${etag}` })).status,
    ).toBe(304);
  });

  it("answers 200 with a new tag once the buyer's data changed, and counts it", async () => {
    await withinOneWindow();
    const first = await get("/orders?limit=2");
    const etag = first.headers.get("etag") ?? "";
    expect((await patch(orderId, { supplier_order_reference: "SO-air" })).status).toBe(200);
    const after = await get("/orders?limit=2", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ supplier_order_reference: "SO-air" })]),
    );
    expect(remaining(after)).toBeLessThan(remaining(first));
  });

  it("keeps a tag when another buyer's data changes", async () => {
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    await seedOrders(harness.database, other, [{ createdAt: CREATED_AT }]);
    expect((await get("/orders?limit=2", { "if-none-match": etag })).status).toBe(304);
  });

  it("answers 200, counted, for another URL's tag, a foreign or malformed one", async () => {
    await withinOneWindow();
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    for (const header of [
      (await get("/orders?limit=3")).headers.get("etag") ?? "",
      (await get("/buyer_product_approvals")).headers.get("etag") ?? "",
      '"v1-abc"',
      "not a tag",
      '"unterminated',
      etag.slice(1, -1),
    ]) {
      const before = await get("/orders?limit=1");
      const response = await get("/orders?limit=2", { "if-none-match": header });
      expect(response.status, header).toBe(200);
      expect(response.headers.get("etag")).toBe(etag);
      expect(remaining(response), header).toBeLessThan(remaining(before));
    }
  });

  it("never answers 304 to another buyer holding this buyer's tag", async () => {
    const etag = (await get("/orders?limit=2")).headers.get("etag") ?? "";
    const response = await get("/orders?limit=2", { "if-none-match": etag }, other.apiKey);
    expect(response.status).toBe(200);
  });

  it("answers a repeated read from the cache with the same bytes, without running the operation", async () => {
    const first = await get("/orders?limit=2&order_status=quote_selected");
    let again: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(async () => {
      again = await get("/orders?limit=2&order_status=quote_selected");
    });
    expect(again?.status).toBe(200);
    expect(again?.text).toBe(first.text);
    expect(again?.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again?.headers.get("link")).toBe(first.headers.get("link"));
    expect(statements).toHaveLength(1);
    const metrics = await (await harness.app.fetch("http://localhost/metrics")).text();
    expect(metrics).toMatch(/^http_response_cache_hits_total [1-9]/m);
    expect(metrics).toMatch(/^http_not_modified_total [1-9]/m);
    expect(metrics).toMatch(/^http_response_cache_bytes [1-9]/m);
  });
});

// ETags follow the record types a read can show (docs/design/decisions.md §9): a
// write keeps the tags of reads that cannot show what it wrote, and moves the
// tag of every read whose answer it changes.

describe("tags per record type", () => {
  let buyer: SeededBuyer;
  let orderId: string;
  const get = (path: string, headers: Record<string, string> = {}) =>
    callApi(harness.app, "GET", path, { key: buyer.apiKey, headers });
  const readPaths = () => [
    "/orders",
    "/orders?limit=1",
    "/orders?order_status[]=order_placed",
    `/orders/${orderId}`,
    "/buyer_product_approvals",
    `/buyer_product_approvals?buyer_product_id=${buyer.buyerProductId}`,
    `/buyer_product_approvals/${buyer.approvalId}`,
    `/buyer_products/${buyer.buyerProductId}`,
  ];

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Tagged");
    [orderId = ""] = await seedOrders(harness.database, buyer, [
      {
        createdAt: CREATED_AT,
        orderStatus: "order_placed",
        resourceValues: [{ provider: "erp", value: "A" }],
      },
      { createdAt: CREATED_AT },
    ]);
  });

  it("keeps the approvals' and buyer products' tags over an order PATCH: their pollers get 304, free", async () => {
    const polled = [
      "/buyer_product_approvals",
      `/buyer_product_approvals/${buyer.approvalId}`,
      `/buyer_products/${buyer.buyerProductId}`,
    ];
    const before = await Promise.all(polled.map((path) => get(path)));
    const orders = await get("/orders");
    const patched = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
      key: buyer.apiKey,
      body: { supplier_order_reference: `SO-${Date.now()}` },
    });
    expect(patched.status).toBe(200);
    await withinOneWindow();
    for (const [index, path] of polled.entries()) {
      const etag = before[index]?.headers.get("etag") ?? "";
      const first = await get(path);
      expect(first.headers.get("etag"), path).toBe(etag);
      const again = await get(path, { "if-none-match": etag });
      expect(again.status, path).toBe(304);
      expect(remaining(again), path).toBe(remaining(first));
    }
    // The orders' poller gets the change, under a new tag.
    const ordersAgain = await get("/orders", { "if-none-match": orders.headers.get("etag") ?? "" });
    expect(ordersAgain.status).toBe(200);
    expect(ordersAgain.headers.get("etag")).not.toBe(orders.headers.get("etag"));
  });

  // One write of each record type the change log versions, as any path may write it (plain SQL).
  const writes: { recordType: string; write: () => Promise<unknown> }[] = [
    { recordType: "order", write: () => newText("orders", "tracking_type", orderId) },
    {
      recordType: "order (resource values)",
      write: () =>
        sql`UPDATE order_resource_values SET value = gen_random_uuid()::text WHERE order_id = ${orderId}::uuid`,
    },
    {
      recordType: "buyer_product",
      write: () => newText("buyer_products", "raw_material_name", buyer.buyerProductId),
    },
    {
      recordType: "buyer_product (resource values)",
      write: () =>
        sql`INSERT INTO buyer_product_resource_values (buyer_product_id, position, provider, value)
            SELECT ${buyer.buyerProductId}::uuid, coalesce(max(position) + 1, 0), 'erp', 'B'
            FROM buyer_product_resource_values WHERE buyer_product_id = ${buyer.buyerProductId}::uuid`,
    },
    {
      recordType: "buyer_product_approval",
      write: () => newText("buyer_product_approvals", "reference", buyer.approvalId),
    },
    { recordType: "supplier", write: () => newText("suppliers", "name", buyer.supplierId) },
    { recordType: "product", write: () => newText("products", "name", buyer.productId) },
    { recordType: "order_type", write: () => newText("order_types", "type_of", buyer.orderTypeId) },
    {
      recordType: "delivery_site",
      write: () => newText("delivery_sites", "site_name", buyer.deliverySiteId),
    },
    { recordType: "tag", write: () => newText("tags", "name", buyer.tagIds[0] ?? "") },
    { recordType: "tag_group", write: () => newText("tag_groups", "name", buyer.tagGroupId) },
    {
      recordType: "tagging",
      write: () =>
        sql`INSERT INTO taggings (tag_id, taggable_type, taggable_id, buyer_id)
            VALUES (${buyer.tagIds[1] ?? ""}::uuid, 'Order', ${orderId}::uuid, ${buyer.buyerId}::uuid)`,
    },
    {
      recordType: "supplier_user",
      write: () =>
        sql`INSERT INTO supplier_users (id, supplier_id, created_by_buyer_id, first_name, contact_email, contact_email_key)
            VALUES (gen_random_uuid(), ${buyer.supplierId}::uuid, ${buyer.buyerId}::uuid, 'Ada', 'ada@example.test', 'ada@example.test')`,
    },
    {
      recordType: "supplier_connection",
      write: () =>
        sql`UPDATE supplier_connections SET relationship = 'preferred_supplier' WHERE buyer_id = ${buyer.buyerId}::uuid`,
    },
    { recordType: "buyer", write: () => newText("buyers", "name", buyer.buyerId) },
  ];
  function sql(strings: TemplateStringsArray, ...values: string[]) {
    return harness.database.prisma.$executeRaw(strings, ...values);
  }
  /** Gives `table.column` of the row `id` a new text. */
  function newText(table: string, column: string, id: string) {
    return harness.database.prisma.$executeRawUnsafe(
      `UPDATE ${table} SET ${column} = gen_random_uuid()::text WHERE id = $1::uuid`,
      id,
    );
  }

  it("moves a read's tag whenever a write changes its answer, whatever record type it wrote, and only then for records it cannot show", async () => {
    const changedBy = new Map<string, string[]>();
    for (const { recordType, write } of writes) {
      const before = await Promise.all(readPaths().map((path) => get(path)));
      await write();
      for (const [index, path] of readPaths().entries()) {
        const earlier = before[index];
        const now = await get(path);
        expect(now.status, path).toBe(200);
        // None of these reads shows supplier users or tags: a write of them keeps every tag.
        if (["supplier_user", "tag", "tag_group", "tagging"].includes(recordType))
          expect(now.headers.get("etag"), `${path} after a write of ${recordType}`).toBe(
            earlier?.headers.get("etag"),
          );
        if (now.text !== earlier?.text) {
          expect(now.headers.get("etag"), `${path} after a write of ${recordType}`).not.toBe(
            earlier?.headers.get("etag"),
          );
          changedBy.set(path, [...(changedBy.get(path) ?? []), recordType]);
        }
      }
    }
    // Not vacuous: the writes changed what every read shows, through the records each embeds.
    const shownInOrders = [
      "order",
      "order (resource values)",
      "buyer_product",
      "supplier",
      "order_type",
      "delivery_site",
      "supplier_connection",
    ];
    expect(changedBy.get("/orders")).toEqual(expect.arrayContaining(shownInOrders));
    expect(changedBy.get(`/orders/${orderId}`)).toEqual(expect.arrayContaining(shownInOrders));
    expect(changedBy.get(`/buyer_products/${buyer.buyerProductId}`)).toEqual(
      expect.arrayContaining(["buyer_product", "buyer_product (resource values)"]),
    );
    expect([...changedBy.keys()].sort()).toEqual(readPaths().sort());
  });
});
