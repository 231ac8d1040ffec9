// Data and contexts for the tests of planned reads: two buyers whose records
// hold the values JSON and SQL are most easily wrong about (20-digit and
// trailing-zero decimals, nulls in every nullable column, empty and long
// lists, text JSON must escape, timestamps with and without milliseconds,
// ties), generated from a fixed seed so that a failure can be replayed.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { Database } from "../../src/db/database.js";
import type { TaggableType } from "../../src/domain/tagging.js";
import type { GraphQLContext } from "../../src/schema/context.js";
import { webhookEndpointsWith } from "../../src/services/webhook-endpoints.js";
import { connectSupplier, type SeededBuyer, seedBuyer } from "./seed.js";
import { testConfig } from "./test-app.js";

export const SEED = 20_261_126;

const EDGE_TEXTS = [
  "",
  "plain",
  'quote " and backslash \\',
  "line\nbreak\ttab\rreturn",
  "\u0001\u001f control \u007f",
  "\u2028\u2029 separators",
  "émoji 🧪 and 漢字",
  "</script><!--",
  "'; DROP TABLE orders; --",
  "%_ like \\% wildcards",
  "x".repeat(255),
];

/** A text with characters JSON must escape or may not, never NUL (PostgreSQL text cannot hold it). */
const text = fc.oneof(
  fc.constantFrom(...EDGE_TEXTS),
  fc
    .string({ unit: "binary", maxLength: 40 })
    .filter((value) => !value.includes("\u0000") && value.isWellFormed()),
);
const nullable = <Value>(value: fc.Arbitrary<Value>) => fc.option(value, { nil: null, freq: 3 });

/** numeric(20,6): 20 digits, trailing zeros, zero, negative. */
const decimal20 = fc.oneof(
  fc.constantFrom(
    "0",
    "0.000001",
    "10340.500000",
    "10340.5",
    "100",
    "12345678901234.123456",
    "99999999999999.999999",
    "-99999999999999.999999",
    "-1.10",
    "4.000000",
  ),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 14n) + 1n, max: 10n ** 14n - 1n }), fc.integer({ min: 0, max: 999_999 }))
    .map(([whole, fraction]) => `${whole}.${String(fraction).padStart(6, "0")}`),
);
/** numeric(9,4). */
const decimal9 = fc.oneof(
  fc.constantFrom("0", "10", "12.5000", "99999.9999", "0.0001"),
  fc.integer({ min: 0, max: 999_999_999 }).map((value) => (value / 10_000).toFixed(4)),
);

/** Timestamps with and without milliseconds, in four-digit years, with ties. */
const TIMES = [
  "2025-01-01T00:00:00.000Z",
  "2025-01-01T00:00:00.000Z",
  "2025-01-01T00:00:00.001Z",
  "2025-03-31T23:59:59.999Z",
  "2025-04-01T00:00:00.000Z",
  "2025-06-15T12:30:45.120Z",
  "2025-06-15T12:30:45.000Z",
  "0001-01-01T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
  "1999-12-31T23:59:59.500Z",
].map((time) => new Date(time));
const time = fc.oneof(
  fc.constantFrom(...TIMES),
  fc.date({
    min: new Date("2024-01-01T00:00:00.000Z"),
    max: new Date("2026-01-01T00:00:00.000Z"),
    noInvalidDate: true,
  }),
  fc
    .integer({
      min: Date.parse("2024-01-01T00:00:00Z") / 1000,
      max: Date.parse("2026-01-01T00:00:00Z") / 1000,
    })
    .map((seconds) => new Date(seconds * 1000)),
);

const ORDER_STATUSES = [
  "quote_selected",
  "order_placed",
  "order_confirmed",
  "in_transit",
  "in_warehouse",
  "shipped",
  "in_port",
  "delivered",
] as const;
const APPROVAL_STATUSES = [
  "preferred",
  "purchased",
  "approved",
  "sample_requested",
  "sample_approved",
  "pending",
  "unstarted",
  "inactive",
  "unapproved",
] as const;
const PRICE_TYPES = ["ex_stock", "indent", "hot_deal", "excess_stock", "full_container"] as const;
const PRODUCT_TYPES = ["Dye", "Fragrance", "Other", "Packaging", "RawMaterial"] as const;
const UNITS = ["EA", "L", "MT", "g", "kg", "mL"] as const;
const CONTAINERS = ["Bag", "BulkBag", "Drum", "ISOTank", "Tanker"] as const;
const DOCUMENT_TYPES = ["sds", "tds", "halal_certificate", "iso9001", "quote", "other"] as const;

const resourceValue = fc.record({ provider: text, value: text });

/** An order event's stored changes, as the update records them (`{ column: { from, to } }`), and odd ones. */
const storedChanges = fc.oneof(
  fc.constant({}),
  fc.record({
    order_status: fc.record({
      from: fc.constantFrom(...ORDER_STATUSES),
      to: fc.constantFrom(...ORDER_STATUSES),
    }),
  }),
  fc.record({
    purchase_order_reference: fc.record({ from: nullable(text), to: nullable(text) }),
    placed_at: fc.record({ from: fc.constant(null), to: time.map((at) => at.toISOString()) }),
  }),
  fc.record({
    resource_values: fc.record({
      from: fc.array(resourceValue, { maxLength: 2 }),
      to: fc.array(resourceValue, { maxLength: 2 }),
    }),
  }),
  // A change with no `to`, and numbers a document may hold.
  fc.record({
    supplier_order_reference: fc.record({ from: text }),
    quantity: fc.record({
      from: fc.constantFrom(0, 1.5, -2, 1e-7, 2 ** 53 + 1),
      to: fc.double({ noNaN: true, noDefaultInfinity: true }),
    }),
  }),
);
const resourceValues = fc.oneof(
  fc.array(resourceValue, { maxLength: 0 }),
  fc.array(resourceValue, { minLength: 1, maxLength: 3 }),
  fc.array(resourceValue, { minLength: 50, maxLength: 50 }),
);

/** Every record one buyer has, for checks that look for them. */
export interface GeneratedBuyer extends SeededBuyer {
  orderIds: string[];
  approvalIds: string[];
  buyerProductIds: string[];
  /** Supplier users this buyer created, of its connected supplier and of another. */
  supplierUserIds: string[];
  /** Ids of every row of this buyer's (orders, approvals, buyer products, supplier users, sites), to look for in answers. */
  ownIds: string[];
}

const sample = <Value>(arbitrary: fc.Arbitrary<Value>, seed: number, count: number): Value[] =>
  fc.sample(arbitrary, { seed, numRuns: count });

/**
 * A buyer with 12 buyer products, 30 approvals, 8 supplier users and 90
 * orders of generated values, referring to each other and to suppliers connected or not.
 */
export async function generateBuyer(database: Database, name: string, seed: number): Promise<GeneratedBuyer> {
  const buyer = await seedBuyer(database, name);
  const { prisma } = database;
  const siteId = randomUUID();
  const [site] = sample(fc.tuple(text, text, text), seed, 1);
  await prisma.deliverySite.create({
    data: {
      id: siteId,
      buyerId: buyer.buyerId,
      siteName: site?.[0] ?? "",
      addressStreet: site?.[1] ?? "",
      addressCity: "Zürich",
      addressState: "ZH",
      addressPostcode: "8000",
      addressCountry: "CH",
      addressFullAddress: site?.[2] ?? "",
    },
  });

  // Catalogue products auto-match made hold no name: one with a CAS number, one without.
  const unnamedProductIds = [randomUUID(), randomUUID()];
  await prisma.product.createMany({
    data: unnamedProductIds.map((id, index) => ({
      id,
      name: null,
      normalizedName: "",
      casNumber: index === 0 ? "64-17-5" : null,
      productType: "RawMaterial" as const,
    })),
  });
  const productIds = [buyer.productId, ...unnamedProductIds];

  const products = sample(
    fc.record({
      product: fc.nat({ max: productIds.length - 1 }),
      rawMaterialName: nullable(text),
      rawMaterialCode: nullable(text),
      measurementUnit: fc.constantFrom(...UNITS),
      productType: fc.constantFrom(...PRODUCT_TYPES),
      annualUsage: nullable(fc.constantFrom(0, 1, 2_147_483_647)),
      typicalOrderSize: nullable(fc.nat()),
      frequency: nullable(text),
      containerType: nullable(fc.constantFrom(...CONTAINERS)),
      targetApprovals: nullable(fc.nat({ max: 9 })),
      priorityProduct: fc.boolean(),
      active: fc.boolean(),
      documentTypes: fc.oneof(
        fc.uniqueArray(fc.constantFrom(...DOCUMENT_TYPES), { maxLength: 0 }),
        fc.uniqueArray(fc.constantFrom(...DOCUMENT_TYPES)),
      ),
      createdAt: time,
      // Null for a product from before the outcome was stored; the score a double with every digit.
      autoMatch: nullable(
        fc.record({
          strategy: fc.constantFrom("cas_number", "similar_name", "none"),
          score: fc.oneof(fc.constantFrom(0, 1, 0.1, 1e-7), fc.double({ min: 0, max: 1, noNaN: true })),
        }),
      ),
      resourceValues,
    }),
    seed + 1,
    12,
  ).map(({ autoMatch, product: productIndex, ...product }) => ({
    ...product,
    productId: productIds[productIndex] ?? buyer.productId,
    id: randomUUID(),
    autoMatchStrategy: autoMatch?.strategy ?? null,
    autoMatchScore: autoMatch?.score ?? null,
  }));
  await prisma.buyerProduct.createMany({
    data: products.map(({ resourceValues: _values, ...product }) => ({
      ...product,
      buyerId: buyer.buyerId,
      updatedAt: product.createdAt,
    })),
  });
  await prisma.buyerProductResourceValue.createMany({
    data: products.flatMap((product) =>
      product.resourceValues.map((item, position) => ({ ...item, buyerProductId: product.id, position })),
    ),
  });
  const buyerProductIds = [buyer.buyerProductId, ...products.map((product) => product.id)];

  const approvals = sample(
    fc.record({
      approvalStatus: fc.constantFrom(...APPROVAL_STATUSES),
      buyerProduct: fc.nat({ max: buyerProductIds.length - 1 }),
      supplier: fc.constantFrom("connected", "unconnected", "none"),
      supplierName: nullable(text),
      catalogueParentDisplayName: nullable(text),
      catalogueParentProductCode: nullable(text),
      reference: nullable(
        fc.oneof(
          text,
          fc.nat({ max: 40 }).map((n) => `APP-${n}`),
        ),
      ),
      createdAt: time,
    }),
    seed + 2,
    30,
  ).map(({ buyerProduct, supplier, ...approval }) => ({
    ...approval,
    id: randomUUID(),
    buyerId: buyer.buyerId,
    buyerProductId: buyerProductIds[buyerProduct] ?? buyer.buyerProductId,
    supplierId:
      supplier === "connected"
        ? buyer.supplierId
        : supplier === "unconnected"
          ? buyer.unconnectedSupplierId
          : null,
    updatedAt: approval.createdAt,
  }));
  await prisma.buyerProductApproval.createMany({ data: approvals });
  const approvalIds = [buyer.approvalId, ...approvals.map((approval) => approval.id)];

  const supplierUsers = sample(
    fc.record({ firstName: nullable(text), lastName: nullable(text), contactEmail: text, createdAt: time }),
    seed + 3,
    8,
  ).map((user, index) => ({
    ...user,
    // The first has a buyer product's id: a record of another type in the same id space, tagged otherwise.
    id: index === 0 ? (products[0]?.id ?? randomUUID()) : randomUUID(),
    supplierId: index % 2 === 0 ? buyer.supplierId : buyer.unconnectedSupplierId,
    // Unique per supplier, whatever the generated address.
    contactEmailKey: `user-${index}@${name}`,
    createdByBuyerId: buyer.buyerId,
    updatedAt: user.createdAt,
  }));
  await prisma.supplierUser.createMany({ data: supplierUsers });
  const supplierUserIds = supplierUsers.map((user) => user.id);

  const orders = sample(
    fc.record({
      approval: fc.nat({ max: approvalIds.length - 1 }),
      connected: fc.boolean(),
      site: fc.boolean(),
      priceType: fc.constantFrom(...PRICE_TYPES),
      quantity: decimal20,
      pricePerUom: decimal20,
      taxAmount: decimal20,
      taxPercentage: decimal9,
      priceTotal: decimal20,
      currency: fc.constantFrom("AUD", "EUR", "USD"),
      orderReference: nullable(
        fc.oneof(
          text,
          fc.nat({ max: 60 }).map((n) => `ORD-${n}`),
        ),
      ),
      orderStatus: fc.constantFrom(...ORDER_STATUSES),
      purchaseOrderReference: nullable(
        fc.oneof(
          text,
          fc.nat({ max: 60 }).map((n) => `PO-${n}`),
        ),
      ),
      supplierOrderReference: nullable(text),
      trackingType: nullable(text),
      placedAt: nullable(time),
      createdAt: time,
      updatedAt: time,
      resourceValues,
    }),
    seed + 3,
    90,
  ).map(({ approval, connected, site: otherSite, resourceValues: values, ...order }) => ({
    order: {
      ...order,
      id: randomUUID(),
      buyerId: buyer.buyerId,
      supplierId: connected ? buyer.supplierId : buyer.unconnectedSupplierId,
      buyerProductApprovalId: approvalIds[approval] ?? buyer.approvalId,
      deliverySiteId: otherSite ? siteId : buyer.deliverySiteId,
      orderTypeId: buyer.orderTypeId,
    },
    values,
  }));
  await prisma.order.createMany({ data: orders.map(({ order }) => order) });
  await prisma.orderResourceValue.createMany({
    data: orders.flatMap(({ order, values }) =>
      values.map((item, position) => ({ ...item, orderId: order.id, position })),
    ),
  });
  const orderIds = orders.map(({ order }) => order.id);
  const events = sample(
    fc.record({ order: fc.nat({ max: 9 }), changes: storedChanges, createdAt: time }),
    seed + 6,
    30,
  );
  await prisma.orderEvent.createMany({
    data: events.map((event) => ({
      id: randomUUID(),
      orderId: orderIds[event.order] ?? "",
      buyerId: buyer.buyerId,
      actor: `api_key:${buyer.apiKeyId}`,
      changes: event.changes,
      createdAt: event.createdAt,
    })),
  });
  await tagRecords(database, buyer, seed, {
    BuyerProduct: buyerProductIds,
    BuyerProductApproval: approvalIds,
    SupplierUser: supplierUserIds,
    Order: orderIds,
  });
  return {
    ...buyer,
    orderIds,
    approvalIds,
    buyerProductIds,
    supplierUserIds,
    ownIds: [
      ...orderIds,
      ...approvalIds,
      ...buyerProductIds,
      ...supplierUserIds,
      siteId,
      buyer.deliverySiteId,
      buyer.orderTypeId,
    ],
  };
}

/**
 * Tags of generated names beside the seeded ones (one of a seeded tag's name,
 * the id breaking the tie), and taggings of the records of each type: one
 * record in four has none, the others one to three; the first of each type has one.
 */
async function tagRecords(
  database: Database,
  buyer: SeededBuyer,
  seed: number,
  records: Record<TaggableType, readonly string[]>,
): Promise<void> {
  const { prisma } = database;
  const names = [...sample(text, seed + 5, 3), "Tag 1"];
  const tags = names.map((name) => ({
    id: randomUUID(),
    buyerId: buyer.buyerId,
    tagGroupId: buyer.tagGroupId,
    name,
    category: name,
  }));
  await prisma.tag.createMany({ data: tags });
  const tagIds = [...buyer.tagIds, ...tags.map((tag) => tag.id)];
  const taggings = new Map<
    string,
    { tagId: string; taggableType: TaggableType; taggableId: string; buyerId: string }
  >();
  for (const [taggableType, ids] of Object.entries(records) as [TaggableType, readonly string[]][]) {
    ids.forEach((taggableId, index) => {
      for (let count = 0; count < (index + 1) % 4; count += 1) {
        const tagId = tagIds[(index * 5 + count * 3 + taggableType.length) % tagIds.length] ?? "";
        // One tag once on an id, whatever the record's type (the taggings' key).
        taggings.set(`${taggableId} ${tagId}`, { tagId, taggableType, taggableId, buyerId: buyer.buyerId });
      }
    });
  }
  await prisma.tagging.createMany({ data: [...taggings.values()] });
}

const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed", "cancelled"] as const;

/**
 * Two webhook endpoints of `buyer`: one with 12 deliveries of generated
 * events (ties in creation time, every status, attempts of their own), one
 * with none. Answers their ids, the first's first.
 */
export async function generateDeliveries(
  database: Database,
  buyer: SeededBuyer,
  seed: number,
): Promise<string[]> {
  const { prisma } = database;
  const endpointIds = [randomUUID(), randomUUID()];
  await prisma.webhookEndpoint.createMany({
    data: endpointIds.map((id) => ({
      id,
      buyerId: buyer.buyerId,
      url: "https://example.com/hook",
      enabledEvents: ["*"],
      secretCiphertext: "not a secret",
    })),
  });
  const generated = sample(
    fc.record({
      type: fc.constantFrom("order.created", "order.updated", "buyer_product.created"),
      data: fc.constantFrom('{"amount":12345678901234.567890}', '{"text":"émoji 🧪 \\u0000"}', "{}"),
      status: fc.constantFrom(...DELIVERY_STATUSES),
      attempts: fc.integer({ min: 0, max: 3 }),
      createdAt: time,
      succeededAt: nullable(time),
      error: nullable(text),
      statusCode: nullable(fc.integer({ min: 100, max: 599 })),
    }),
    seed,
    12,
  );
  const events = generated.map(({ type, data, createdAt }) => ({
    id: randomUUID(),
    buyerId: buyer.buyerId,
    type,
    data,
    createdAt,
  }));
  await prisma.webhookEvent.createMany({ data: events });
  const deliveries = generated.map(({ status, attempts, createdAt, succeededAt }, index) => ({
    id: randomUUID(),
    buyerId: buyer.buyerId,
    endpointId: endpointIds[0] ?? "",
    eventId: events[index]?.id ?? "",
    status,
    attempts,
    createdAt,
    succeededAt,
  }));
  await prisma.webhookDelivery.createMany({ data: deliveries });
  await prisma.webhookDeliveryAttempt.createMany({
    data: deliveries.flatMap((delivery, index) =>
      Array.from({ length: delivery.attempts }, (_unused, attempt) => ({
        id: randomUUID(),
        deliveryId: delivery.id,
        attempt: attempt + 1,
        statusCode: generated[index]?.statusCode ?? null,
        durationMs: 10 * (attempt + 1),
        error: generated[index]?.error ?? null,
        createdAt: delivery.createdAt,
      })),
    ),
  });
  return endpointIds;
}

/**
 * Two generated buyers. The second is also connected, with its own
 * relationships, to both of the first's suppliers (the one the first is not
 * connected to, too), its connection stored before the first's: an order
 * shows the relationship of the buyer reading it, or none.
 */
export async function generateTwoBuyers(database: Database): Promise<[GeneratedBuyer, GeneratedBuyer]> {
  const first = await generateBuyer(database, "Aurora", SEED);
  const second = await generateBuyer(database, "Borealis", SEED + 100);
  const own = { buyerId: first.buyerId, supplierId: first.supplierId };
  const { relationship } = await database.prisma.supplierConnection.delete({
    where: { buyerId_supplierId: own },
  });
  await connectSupplier(database, second, first.supplierId, "second buyer's own relationship");
  await connectSupplier(database, second, first.unconnectedSupplierId, "only the second buyer's");
  await database.prisma.supplierConnection.create({ data: { ...own, relationship } });
  return [first, second];
}

/** The context a request of `buyer` executes with, as the app makes it. */
export function contextOf(database: Database, buyer: SeededBuyer): GraphQLContext {
  return {
    prisma: database.prisma,
    viewer: { buyerId: buyer.buyerId, apiKeyId: buyer.apiKeyId },
    requestId: randomUUID(),
    appBaseUrl: testConfig().appBaseUrl,
    orderUpdates: {
      subscribe: () => Promise.reject(new Error("reads do not subscribe")),
      close: async () => {},
    },
    webhookEndpoints: webhookEndpointsWith(testConfig().webhooks),
  };
}
