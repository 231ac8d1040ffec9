// The property behind conditional and cached reads (docs/design/decisions.md §9): a
// 304 or a cached answer always equals what a fresh execution returns at that
// moment, whatever wrote in between: REST, GraphQL mutations, the import (of
// changed orders and approvals, a renamed supplier or product), catalogue
// renormalize, or plain SQL, of the orders or of any record the reads embed.
// Two app instances share the database, each with its own cache; a third,
// without a cache and without validators, is the reference.
// BPA_PROPERTY_STEPS sets the number of steps (default 2,000).

import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { importData } from "../../src/import/import.js";
import { createLogger } from "../../src/logger.js";
import { renormalizeCatalogue } from "../../src/services/catalogue-renormalize.js";
import { CONFIGURED_POOL } from "../support/database-pool.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { API, testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const STEPS = Number(process.env.BPA_PROPERTY_STEPS ?? 2000);
const STEPS_PER_RUN = 50;
const CREATED_AT = new Date("2025-04-01T08:00:00.000Z");

// `{order}`, `{approval}` and `{buyerProduct}` are the reading buyer's first order, its approval and its buyer product.
const READ_PATHS = [
  "/orders?limit=3",
  "/orders",
  "/orders?order_status[]=order_placed&order_status[]=order_confirmed",
  "/orders/{order}",
  "/buyer_product_approvals?limit=5",
  "/buyer_product_approvals",
  "/buyer_product_approvals/{approval}",
  "/buyer_products/{buyerProduct}",
];
const REFERENCES = ["PO-1", "PO-2", "PO-3"];
const STATUSES = ["quote_selected", "order_placed", "order_confirmed", "shipped", "delivered"] as const;
const SUPPLIER_NAMES = ["Oleo Ltd", "Oleo Chemicals Ltd", "Oleo & Sons"];
const PRODUCT_NAMES = ["Glycerin", "Glycerine USP", "Glycerol 99%"];
const APPROVAL_STATUSES = ["approved", "preferred", "pending"] as const;

type Step =
  | { kind: "read"; instance: number; buyer: number; path: number; conditional: boolean }
  | { kind: "restPatch"; instance: number; order: number; reference: number; status: number | null }
  | { kind: "graphqlUpdate"; instance: number; order: number; reference: number }
  | { kind: "graphqlTags"; instance: number; order: number; attach: boolean; tag: number }
  | { kind: "restSupplierUser"; instance: number }
  | {
      kind: "import";
      order: number;
      status: number;
      reference: number;
      supplierName: number;
      productName: number;
      approvalStatus: number;
    }
  | { kind: "renormalize" }
  | { kind: "sql"; order: number; reference: number }
  | { kind: "sqlShown"; write: number; reference: number };

/** Plain SQL writes of the records orders, approvals and buyer products embed; `$1` a reference, `$2` the first buyer. */
const SHOWN_WRITES = [
  "UPDATE delivery_sites SET site_name = $1 WHERE buyer_id = $2::uuid",
  "UPDATE order_types SET type_of = $1 WHERE id IN (SELECT order_type_id FROM orders WHERE buyer_id = $2::uuid)",
  "UPDATE buyer_products SET raw_material_name = $1 WHERE buyer_id = $2::uuid",
  "UPDATE supplier_connections SET relationship = $1 WHERE buyer_id = $2::uuid",
  "UPDATE buyer_product_approvals SET reference = $1 WHERE buyer_id = $2::uuid",
  `INSERT INTO buyer_product_resource_values (buyer_product_id, position, provider, value)
   SELECT id, 0, 'erp', $1 FROM buyer_products WHERE buyer_id = $2::uuid
   ON CONFLICT (buyer_product_id, position) DO UPDATE SET value = excluded.value`,
  "UPDATE tags SET name = $1 WHERE buyer_id = $2::uuid",
];

const index = (size: number) => fc.integer({ min: 0, max: size - 1 });
const instance = index(2);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      instance,
      buyer: index(2),
      path: index(READ_PATHS.length),
      conditional: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("restPatch" as const),
      instance,
      order: index(4),
      reference: index(REFERENCES.length),
      status: fc.option(index(STATUSES.length), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("graphqlUpdate" as const),
      instance,
      order: index(4),
      reference: index(REFERENCES.length),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("graphqlTags" as const),
      instance,
      order: index(4),
      attach: fc.boolean(),
      tag: index(3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restSupplierUser" as const), instance }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("import" as const),
      order: index(2),
      status: index(STATUSES.length),
      reference: index(REFERENCES.length),
      supplierName: index(SUPPLIER_NAMES.length),
      productName: index(PRODUCT_NAMES.length),
      approvalStatus: index(APPROVAL_STATUSES.length),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("renormalize" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("sql" as const),
      order: index(4),
      reference: index(REFERENCES.length),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("sqlShown" as const),
      write: index(SHOWN_WRITES.length),
      reference: index(REFERENCES.length),
    }),
  },
);

interface Answer {
  status: number;
  etag: string | null;
  link: string | null;
  text: string;
}

async function read(app: App, key: string, path: string, ifNoneMatch?: string): Promise<Answer> {
  const response = await app.fetch(`${API}${path}`, {
    headers: { "x-api-key": key, ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}) },
  });
  return {
    status: response.status,
    etag: response.headers.get("etag"),
    link: response.headers.get("link"),
    text: await response.text(),
  };
}

describe("no stale reads", { timeout: 900_000 }, () => {
  let database: TestDatabase;
  const extraDatabases: Database[] = [];
  let instances: App[];
  let reference: App;
  let buyers: SeededBuyer[];
  /** The first buyer's orders: two seeded, two written by the import. */
  let orderIds: string[];
  /** Each buyer's first order, the one `{order}` reads. */
  const firstOrders: string[] = [];
  let importedOrderIds: string[];
  /** What each client kept: per instance, buyer and path, the last full answer. */
  const kept = new Map<string, Answer>();
  const seen = { notModified: 0, reads: 0, writes: 0 };

  function appOver(db: Database, responseCacheMaxBytes: number): App {
    return createApp({
      config: testConfig({ rateLimitPerMinute: 1_000_000, responseCacheMaxBytes }),
      database: db,
      logger: createLogger("silent"),
    });
  }

  function importedOrder(id: string, status: string, reference: string) {
    const [buyer] = buyers;
    if (!buyer) throw new Error("no buyer");
    return {
      id,
      buyer_id: buyer.buyerId,
      supplier_id: buyer.supplierId,
      buyer_product_approval_id: buyer.approvalId,
      delivery_site_id: buyer.deliverySiteId,
      order_type_id: buyer.orderTypeId,
      price_type: "ex_stock",
      quantity: 4,
      price_per_uom: 2.35,
      tax_amount: 940,
      tax_percentage: 10,
      price_total: 10340,
      currency: "AUD",
      order_status: status,
      purchase_order_reference: reference,
      resource_values: [{ provider: "erp", value: reference }],
      created_at: CREATED_AT.toISOString(),
    };
  }

  async function runImport(input: unknown): Promise<void> {
    const outcome = await importData(database, input);
    if (!outcome.ok) throw new Error(`import refused: ${JSON.stringify(outcome.problems)}`);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // On PostgreSQL each instance has its own pool, as separate processes would.
    const own = async () => {
      if (database.target.kind !== "postgres") return database;
      const db = await openDatabase(parseDatabaseUrl(database.url), CONFIGURED_POOL);
      extraDatabases.push(db);
      return db;
    };
    instances = [appOver(await own(), 8 * 1024 * 1024), appOver(await own(), 8 * 1024 * 1024)];
    reference = appOver(await own(), 0);
    buyers = [await seedBuyer(database, "First"), await seedBuyer(database, "Second")];
    const [first, second] = buyers;
    if (!first || !second) throw new Error("no buyers");
    // The second buyer is connected to the first buyer's supplier and has an order from it,
    // so renaming that supplier changes what both read.
    await database.prisma.supplierConnection.create({
      data: { buyerId: second.buyerId, supplierId: first.supplierId, relationship: "approved_supplier" },
    });
    const [secondOrder = ""] = await seedOrders(database, second, [
      { createdAt: CREATED_AT, supplierId: first.supplierId },
    ]);
    const seeded = await seedOrders(database, first, [
      { createdAt: CREATED_AT, orderStatus: "order_placed" },
      { createdAt: CREATED_AT },
    ]);
    importedOrderIds = [randomUUID(), randomUUID()];
    await runImport({
      version: 1,
      orders: importedOrderIds.map((id) => importedOrder(id, "quote_selected", "PO-1")),
    });
    orderIds = [...seeded, ...importedOrderIds];
    firstOrders.push(seeded[0] ?? "", secondOrder);
  });
  afterAll(async () => {
    for (const db of extraDatabases) await db.close();
    await database?.close();
  });

  async function perform(step: Step): Promise<void> {
    const [first] = buyers;
    if (!first) throw new Error("no buyer");
    const app = "instance" in step ? (instances[step.instance] ?? reference) : reference;
    const orderId = "order" in step ? (orderIds[step.order] ?? "") : "";
    switch (step.kind) {
      case "read": {
        seen.reads++;
        const buyer = buyers[step.buyer] ?? first;
        const path = (READ_PATHS[step.path] ?? "/orders")
          .replace("{order}", firstOrders[step.buyer] ?? "")
          .replace("{approval}", buyer.approvalId)
          .replace("{buyerProduct}", buyer.buyerProductId);
        const slot = `${step.instance} ${step.buyer} ${path}`;
        const before = kept.get(slot);
        const answer = await read(
          app,
          buyer.apiKey,
          path,
          step.conditional ? (before?.etag ?? undefined) : undefined,
        );
        const fresh = await read(reference, buyer.apiKey, path);
        expect(fresh.status).toBe(200);
        if (answer.status === 304) {
          seen.notModified++;
          expect(before, "304 without a tag sent").toBeDefined();
          expect({ ...before, etag: answer.etag }, `304 for ${slot}`).toEqual(fresh);
        } else {
          expect(answer, `answer for ${slot}`).toEqual(fresh);
          kept.set(slot, answer);
        }
        return;
      }
      case "restPatch": {
        seen.writes++;
        const status = step.status === null ? undefined : STATUSES[step.status];
        await app.fetch(`${API}/orders/${orderId}`, {
          method: "PATCH",
          headers: { "x-api-key": first.apiKey, "content-type": "application/json" },
          body: JSON.stringify({
            purchase_order_reference: REFERENCES[step.reference],
            ...(status ? { order_status: status } : {}),
          }),
        });
        return;
      }
      case "graphqlUpdate":
      case "graphqlTags": {
        seen.writes++;
        const query =
          step.kind === "graphqlUpdate"
            ? `mutation { updateOrder(id: "${orderId}", input: { supplierOrderReference: "${REFERENCES[step.reference]}" }) { id } }`
            : `mutation { ${step.attach ? "attachTags" : "detachTags"}(input: { taggableId: "${orderId}", tagIds: ["${first.tagIds[step.tag]}"] }) { taggableId } }`;
        const response = await app.fetch("http://localhost/graphql", {
          method: "POST",
          headers: { "x-api-key": first.apiKey, "content-type": "application/json" },
          body: JSON.stringify({ query }),
        });
        expect(response.status).toBe(200);
        return;
      }
      case "restSupplierUser": {
        seen.writes++;
        const response = await app.fetch(`${API}/suppliers/${first.supplierId}/users`, {
          method: "POST",
          headers: { "x-api-key": first.apiKey, "content-type": "application/json" },
          body: JSON.stringify({
            first_name: "Ada",
            last_name: "Lovelace",
            contact_email: `ada-${randomUUID()}@example.test`,
          }),
        });
        expect(response.status).toBe(201);
        return;
      }
      case "import": {
        seen.writes++;
        await runImport({
          version: 1,
          suppliers: [{ id: first.supplierId, name: SUPPLIER_NAMES[step.supplierName] }],
          products: [
            {
              id: first.productId,
              name: PRODUCT_NAMES[step.productName],
              product_type: "Raw Material",
              code: "GLY-1",
              cas_number: "56-81-5",
              synonyms: ["Glycerol"],
            },
          ],
          buyer_product_approvals: [
            {
              id: first.approvalId,
              buyer_product_id: first.buyerProductId,
              supplier_id: first.supplierId,
              approval_status: APPROVAL_STATUSES[step.approvalStatus],
            },
          ],
          orders: [
            importedOrder(
              importedOrderIds[step.order] ?? "",
              STATUSES[step.status] ?? "order_placed",
              REFERENCES[step.reference] ?? "PO-1",
            ),
          ],
        });
        return;
      }
      case "renormalize": {
        seen.writes++;
        await database.prisma.product.update({
          where: { id: first.productId },
          data: { normalizedName: "stale key" },
        });
        await renormalizeCatalogue(database.prisma);
        return;
      }
      case "sql": {
        seen.writes++;
        await database.prisma
          .$executeRaw`UPDATE orders SET tracking_type = ${REFERENCES[step.reference]} WHERE id = ${orderId}::uuid`;
        return;
      }
      case "sqlShown": {
        seen.writes++;
        await database.prisma.$executeRawUnsafe(
          SHOWN_WRITES[step.write] ?? "",
          REFERENCES[step.reference],
          first.buyerId,
        );
        return;
      }
    }
  }

  it(`answers every 304 and cached read as a fresh execution would, over ${STEPS} steps`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: STEPS_PER_RUN, maxLength: STEPS_PER_RUN }),
        async (steps) => {
          for (const step of steps) await perform(step);
        },
      ),
      { numRuns: Math.ceil(STEPS / STEPS_PER_RUN), endOnFailure: true },
    );
    // The property was exercised, not vacuously true.
    expect(seen.notModified).toBeGreaterThan(0);
    expect(seen.writes).toBeGreaterThan(0);
    const metrics = await (await instances[0]?.fetch("http://localhost/metrics"))?.text();
    expect(metrics).toMatch(/^http_response_cache_hits_total [1-9]/m);
  });
});
