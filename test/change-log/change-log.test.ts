// The change log (docs/design/decisions.md §9): every write that changes what a buyer
// reads leaves entries for that buyer, and bumps the buyer's version once per
// transaction, whichever path wrote it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyerVersion, changesSince, RECORD_TYPE_OF_TABLE } from "../../src/db/change-log.js";
import { renormalizeCatalogue } from "../../src/services/catalogue-renormalize.js";
import { graphqlData } from "../graphql/helpers.js";
import { connectSupplier, type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

const CREATED_AT = new Date("2025-04-01T08:00:00.000Z");

describe("change log", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let stranger: SeededBuyer;

  /** The entries each buyer got from `write`, and how far each buyer's version moved. */
  async function observe(write: () => Promise<unknown>) {
    const buyers = [buyer, other, stranger];
    const before = await Promise.all(
      buyers.map(async (b) => ({
        version: await buyerVersion(harness.database.prisma, b.buyerId),
        seq: (await changesSince(harness.database.prisma, b.buyerId, 0n, 100_000)).at(-1)?.seq ?? 0n,
      })),
    );
    await write();
    return Promise.all(
      buyers.map(async (b, index) => ({
        versionStep:
          (await buyerVersion(harness.database.prisma, b.buyerId)) - (before[index]?.version ?? 0n),
        entries: await changesSince(harness.database.prisma, b.buyerId, before[index]?.seq ?? 0n),
      })),
    );
  }

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Logged");
    other = await seedBuyer(harness.database, "Other");
    stranger = await seedBuyer(harness.database, "Stranger");
    // The other buyer is connected to the first buyer's supplier too.
    await connectSupplier(harness.database, other, buyer.supplierId, "approved_supplier");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("records a REST update as one entry with the previous values of the changed columns, one version step", async () => {
    const [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: CREATED_AT, resourceValues: [{ provider: "erp", value: "A-1" }] },
    ]);
    const [mine, theirs] = await observe(async () => {
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: buyer.apiKey,
        body: { order_status: "order_placed", resource_values: [{ provider: "erp", value: "B-2" }] },
      });
      expect(response.status).toBe(200);
    });
    expect(mine?.versionStep).toBe(1n);
    expect(theirs?.versionStep).toBe(0n);
    expect(theirs?.entries).toEqual([]);
    const orderEntries = mine?.entries.filter((entry) => entry.recordType === "order") ?? [];
    expect(orderEntries.every((entry) => entry.recordId === orderId && entry.change === "updated")).toBe(
      true,
    );
    // Entries of one transaction share its version; the earliest entry holds each column's earlier value.
    expect(new Set(mine?.entries.map((entry) => entry.version)).size).toBe(1);
    const previous = Object.assign({}, ...orderEntries.toReversed().map((entry) => entry.previous));
    expect(previous).toMatchObject({
      order_status: "quote_selected",
      placed_at: null,
      resource_values: [{ provider: "erp", value: "A-1" }],
    });
    expect(previous).not.toHaveProperty("quantity");
  });

  it("records a creation through GraphQL as a created entry", async () => {
    const [mine] = await observe(() =>
      graphqlData(
        harness.app,
        `mutation($input: CreateSupplierUserInput!) { createSupplierUser(input: $input) { id } }`,
        {
          key: buyer.apiKey,
          variables: {
            input: {
              supplierId: buyer.supplierId,
              firstName: "Ada",
              lastName: "Lovelace",
              contactEmail: "ada@example.test",
            },
          },
        },
      ),
    );
    expect(mine?.versionStep).toBe(1n);
    expect(mine?.entries).toEqual([
      expect.objectContaining({ recordType: "supplier_user", change: "created", previous: null }),
    ]);
  });

  it("fans a supplier's new name out to every buyer whose responses show it, and to no one else", async () => {
    const [mine, theirs, strangers] = await observe(() =>
      harness.database.prisma.supplier.update({
        where: { id: buyer.supplierId },
        data: { name: "Renamed Ltd" },
      }),
    );
    for (const reader of [mine, theirs]) {
      expect(reader?.versionStep).toBe(1n);
      expect(reader?.entries).toEqual([
        expect.objectContaining({
          recordType: "supplier",
          recordId: buyer.supplierId,
          change: "updated",
          previous: { name: "Logged Supplier" },
        }),
      ]);
    }
    expect(strangers?.versionStep).toBe(0n);
    expect(strangers?.entries).toEqual([]);
  });

  it("ignores writes that change nothing a buyer reads", async () => {
    const results = await observe(async () => {
      await harness.database.prisma.supplier.update({
        where: { id: buyer.supplierId },
        data: { name: "Renamed Ltd" },
      });
      // Match keys are not shown: scrambling one and renormalizing adds nothing.
      await harness.database.prisma.product.update({
        where: { id: buyer.productId },
        data: { normalizedName: "scrambled" },
      });
      await renormalizeCatalogue(harness.database.prisma);
      await harness.database.prisma.apiKey.update({
        where: { id: buyer.apiKeyId },
        data: { lastUsedAt: new Date() },
      });
    });
    for (const result of results) {
      expect(result.versionStep).toBe(0n);
      expect(result.entries).toEqual([]);
    }
  });

  it("leaves no entry and no version step for a transaction that rolls back", async () => {
    const [orderId = ""] = await seedOrders(harness.database, buyer, [
      { createdAt: CREATED_AT, orderStatus: "delivered" },
    ]);
    const [mine] = await observe(async () => {
      await harness.database.prisma
        .$transaction(async (tx) => {
          await tx.order.update({ where: { id: orderId }, data: { trackingType: "air" } });
          throw new Error("abandon");
        })
        .catch(() => undefined);
      const response = await callApi(harness.app, "PATCH", `/orders/${orderId}`, {
        key: buyer.apiKey,
        body: { tracking_type: "sea", order_status: "quote_selected" },
      });
      expect(response.status).toBe(409);
    });
    expect(mine?.versionStep).toBe(0n);
    expect(mine?.entries).toEqual([]);
  });

  it("logs one entry per row of a bulk statement, all under the transaction's one version", async () => {
    const ids = Array.from({ length: 50 }, () => randomUUID());
    const [mine] = await observe(() =>
      harness.database.prisma.$transaction([
        harness.database.prisma.order.createMany({
          data: ids.map((id) => ({
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
            priceTotal: "1",
            currency: "AUD",
            orderStatus: "quote_selected" as const,
          })),
        }),
        // The lists of orders created in the same transaction add no "updated" entries.
        harness.database.prisma.orderResourceValue.createMany({
          data: ids.map((orderId) => ({ orderId, position: 0, provider: "erp", value: "X" })),
        }),
      ]),
    );
    expect(mine?.versionStep).toBe(1n);
    expect(mine?.entries.map((entry) => [entry.recordType, entry.recordId, entry.change])).toEqual(
      ids.map((id) => ["order", id, "created"]),
    );
  });

  // The record type of each logged table (src/db/change-log.ts), which reads' ETags follow, against
  // the change log's triggers in the database: a table logged by a new trigger cannot be left out,
  // nor one named under another type.
  describe("record types of logged tables", () => {
    it("name every table a change log trigger fires on, by the type its trigger logs", async () => {
      const triggers = await harness.database.query<{
        table: string;
        function: string;
        arguments: string;
        body: string;
      }>(
        `SELECT c.relname AS table, p.proname AS function, encode(t.tgargs, 'escape') AS arguments, p.prosrc AS body
         FROM pg_trigger AS t
         JOIN pg_class AS c ON c.oid = t.tgrelid
         JOIN pg_proc AS p ON p.oid = t.tgfoid
         WHERE NOT t.tgisinternal AND p.proname LIKE 'change\\_log\\_%' AND c.relname <> 'change_log'`,
        [],
      );
      const logged = new Set(triggers.map((trigger) => trigger.table));
      expect([...logged].sort()).toEqual([...RECORD_TYPE_OF_TABLE.keys()].sort());
      for (const trigger of triggers) {
        // The generic functions take the record type as their first argument; the others name it in their body.
        const [argument] = trigger.arguments.split("\\000");
        const named = argument
          ? [argument]
          : [...trigger.body.matchAll(/change_log_append\('([a-z_]+)'/g)].map((match) => match[1]);
        expect(named, `${trigger.table}: ${trigger.function}`).toEqual(
          named.map(() => RECORD_TYPE_OF_TABLE.get(trigger.table)),
        );
        expect(named.length, `${trigger.table}: ${trigger.function}`).toBeGreaterThan(0);
      }
    });
  });
});
