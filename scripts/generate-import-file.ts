// Writes a valid import file (docs/reference/import-format.md) with many orders, for
// load tests and import timing. The same options always give the same file.
//
//   npx tsx scripts/generate-import-file.ts --orders 100000 --out /tmp/big.json [--seed 1]
import { closeSync, openSync, writeSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import { seededRandom } from "../tools/bench-catalogue.js";

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError("must be a whole number");
  return parsed;
}

class Generator {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** A version 4 UUID drawn from the seeded generator. */
  uuid(): string {
    const bytes = Array.from({ length: 16 }, () => this.int(0, 255));
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A CAS registry number with a correct check digit. */
  casNumber(): string {
    const digits = `${this.int(50, 999999)}${String(this.int(0, 99)).padStart(2, "0")}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i += 1) sum += Number(digits[digits.length - 1 - i]) * (i + 1);
    return `${digits.slice(0, -2)}-${digits.slice(-2)}-${sum % 10}`;
  }
}

const ORDER_STATUSES = [
  "quote_selected",
  "order_placed",
  "order_confirmed",
  "in_transit",
  "in_warehouse",
  "shipped",
  "in_port",
  "delivered",
];
const APPROVAL_STATUSES = ["preferred", "purchased", "approved", "sample_approved", "pending", "unstarted"];
const PRICE_TYPES = ["ex_stock", "indent", "hot_deal", "excess_stock", "full_container"];
const PRODUCT_TYPES = [
  "Raw Material",
  "Raw Material",
  "Raw Material",
  "Fragrance",
  "Dye",
  "Packaging",
  "Other",
];
const UNITS = ["kg", "kg", "L", "g", "mL", "MT", "EA"];
const CONTAINERS = ["Bag", "Bulk Bag", "Drum", "IBC", "Pail", "Bottle", "Tanker"];
const WORDS = [
  "Sodium",
  "Laureth",
  "Sulfate",
  "Glyceryl",
  "Stearate",
  "Cocamide",
  "Betaine",
  "Oleate",
  "Citrate",
];
const START = Date.UTC(2024, 0, 1);
const SPAN_MS = 2 * 365 * 24 * 3600 * 1000;

function generate(orderCount: number, seed: number, out: string): void {
  const g = new Generator(seed);
  const buyers = Array.from({ length: 5 }, (_, i) => ({
    id: g.uuid(),
    name: `Load Test Buyer ${i + 1}`,
    api_keys: [`bpk_loadtest_${seed}_${String(i + 1).padStart(24, "0")}`],
  }));
  const suppliers = Array.from({ length: 40 }, (_, i) => ({
    id: g.uuid(),
    name: `Supplier ${String(i + 1).padStart(3, "0")} Chemicals`,
    connections: buyers.map((buyer) => ({
      buyer_id: buyer.id,
      relationship: g.pick(["approved_supplier", "preferred_supplier"]),
    })),
  }));
  const supplierUsers = suppliers.flatMap((supplier, s) =>
    [1, 2].map((n) => ({
      id: g.uuid(),
      supplier_id: supplier.id,
      first_name: `First${n}`,
      last_name: `Last${s}`,
      contact_email: `user${n}@supplier${s}.example`,
      created_by_buyer_id: g.pick(buyers).id,
    })),
  );
  const tagGroups = buyers.flatMap((buyer) =>
    ["Compliance", "Sourcing"].map((name) => ({ id: g.uuid(), buyer_id: buyer.id, name })),
  );
  const tags = tagGroups.flatMap((group) =>
    ["A", "B", "C"].map((letter) => ({
      id: g.uuid(),
      buyer_id: group.buyer_id,
      tag_group_id: group.id,
      name: `${group.name} ${letter}`,
      category: group.name.toLowerCase(),
    })),
  );
  const products = Array.from({ length: 500 }, (_, i) => ({
    id: g.uuid(),
    name: `${g.pick(WORDS)} ${g.pick(WORDS)} ${i + 1}`,
    product_type: g.pick(PRODUCT_TYPES),
    code: i % 3 === 0 ? `CAT-${i + 1}` : null,
    cas_number: g.casNumber(),
    synonyms: i % 2 === 0 ? [`Synonym ${i + 1}`] : [],
  }));
  const buyerProducts = buyers.flatMap((buyer) =>
    Array.from({ length: 200 }, (_, i) => {
      const product = g.pick(products);
      return {
        id: g.uuid(),
        buyer_id: buyer.id,
        product_id: product.id,
        raw_material_name: `${product.name} grade ${i % 4}`,
        measurement_unit: g.pick(UNITS),
        product_type: product.product_type,
        raw_material_code: `RM-${String(i + 1).padStart(5, "0")}`,
        annual_usage: g.int(100, 100000),
        typical_order_size: g.int(1, 1000),
        frequency: g.pick(["weekly", "monthly", "quarterly"]),
        container_type: g.pick(CONTAINERS),
        target_approvals: g.int(1, 3),
        priority_product: g.int(0, 9) === 0,
        active: g.int(0, 19) !== 0,
        document_types: g.pick([["sds"], ["sds", "tds"], ["sds", "batch_coa", "halal_certificate"], []]),
        resource_values: i % 5 === 0 ? [{ provider: "erp", value: g.uuid() }] : [],
        created_at: new Date(START + g.int(0, 30) * 86400000).toISOString(),
      };
    }),
  );
  const approvals = buyerProducts.flatMap((buyerProduct) =>
    [0, 1].map((n) => {
      const supplier = g.pick(suppliers);
      return {
        id: g.uuid(),
        buyer_product_id: buyerProduct.id,
        supplier_id: supplier.id,
        approval_status: g.pick(APPROVAL_STATUSES),
        supplier_name: supplier.name,
        catalogue_parent_display_name: `${buyerProduct.raw_material_name} (${n})`,
        catalogue_parent_product_code: `SUP-${g.int(1000, 9999)}`,
        reference: `APP-${g.int(100000, 999999)}`,
      };
    }),
  );
  const deliverySites = buyers.flatMap((buyer, b) =>
    [1, 2, 3].map((n) => ({
      id: g.uuid(),
      buyer_id: buyer.id,
      site_name: `Site ${n} of buyer ${b + 1}`,
      address: {
        street: `${n} Industrial Way`,
        city: "Dandenong",
        state: "VIC",
        postcode: "3175",
        country: "AU",
        full_address: `${n} Industrial Way, Dandenong VIC 3175, AU`,
      },
    })),
  );
  const orderTypes = [
    { id: g.uuid(), type_of: "local" },
    { id: g.uuid(), type_of: "overseas" },
  ];
  const approvalsByBuyer = new Map<string, typeof approvals>();
  for (const approval of approvals) {
    const buyerId = buyerProducts.find((bp) => bp.id === approval.buyer_product_id)?.buyer_id ?? "";
    approvalsByBuyer.set(buyerId, [...(approvalsByBuyer.get(buyerId) ?? []), approval]);
  }
  const sitesByBuyer = (buyerId: string) => deliverySites.filter((site) => site.buyer_id === buyerId);
  const taggings: { taggable_id: string; tag_id: string }[] = [];
  const tagsOf = (buyerId: string) => tags.filter((tag) => tag.buyer_id === buyerId);
  for (const buyerProduct of buyerProducts.filter((_, i) => i % 4 === 0)) {
    taggings.push({ taggable_id: buyerProduct.id, tag_id: g.pick(tagsOf(buyerProduct.buyer_id)).id });
  }

  const fd = openSync(out, "w");
  const write = (text: string) => writeSync(fd, text);
  const head = {
    version: 1,
    buyers,
    suppliers,
    supplier_users: supplierUsers,
    tag_groups: tagGroups,
    tags,
    products,
    buyer_products: buyerProducts,
    buyer_product_approvals: approvals,
    delivery_sites: deliverySites,
    order_types: orderTypes,
  };
  // Orders are streamed so that the file can exceed the largest string V8 holds.
  write(`${JSON.stringify(head).slice(0, -1)},"orders":[\n`);
  let batch: string[] = [];
  for (let i = 0; i < orderCount; i += 1) {
    const buyer = buyers[i % buyers.length] ?? buyers[0];
    if (!buyer) throw new Error("no buyers");
    const approval = g.pick(approvalsByBuyer.get(buyer.id) ?? []);
    const status = g.pick(ORDER_STATUSES);
    const created = START + Math.floor(g.int(0, 1_000_000) * (SPAN_MS / 1_000_000));
    const quantity = g.int(1, 40);
    const priceCents = g.int(50, 50000);
    const subtotalCents = quantity * priceCents;
    const taxCents = Math.round(subtotalCents / 10);
    const id = g.uuid();
    const order = {
      id,
      buyer_id: buyer.id,
      supplier_id: approval.supplier_id,
      buyer_product_approval_id: approval.id,
      delivery_site_id: g.pick(sitesByBuyer(buyer.id)).id,
      order_type_id: g.pick(orderTypes).id,
      price_type: g.pick(PRICE_TYPES),
      quantity,
      price_per_uom: priceCents / 100,
      tax_amount: taxCents / 100,
      tax_percentage: 10,
      price_total: (subtotalCents + taxCents) / 100,
      currency: g.pick(["AUD", "USD", "EUR"]),
      order_reference: `ORD-${String(i + 1).padStart(7, "0")}`,
      order_status: status,
      purchase_order_reference: status === "quote_selected" ? null : `PO-${g.int(10000, 99999)}`,
      supplier_order_reference: null,
      resource_values: Array.from({ length: g.int(0, 2) }, () => ({ provider: "erp", value: g.uuid() })),
      tracking_type: null,
      placed_at: status === "quote_selected" ? null : new Date(created + 3600000).toISOString(),
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created + 7200000).toISOString(),
    };
    if (i % 10 === 0) taggings.push({ taggable_id: id, tag_id: g.pick(tagsOf(buyer.id)).id });
    batch.push(JSON.stringify(order));
    if (batch.length === 1000) {
      write(`${batch.join(",\n")}${i + 1 < orderCount ? ",\n" : ""}`);
      batch = [];
    }
  }
  if (batch.length > 0) write(batch.join(",\n"));
  write(`\n],"taggings":${JSON.stringify(taggings)}}\n`);
  closeSync(fd);
}

const options = new Command("generate-import-file")
  .description("write a valid, deterministic import file with many orders")
  .option("--orders <n>", "number of orders", positiveInteger, 100_000)
  .option("--seed <n>", "seed: the same seed gives the same ids", positiveInteger, 1)
  .requiredOption("--out <file>", "where to write the file")
  .parse()
  .opts<{ orders: number; seed: number; out: string }>();

const started = performance.now();
generate(options.orders, options.seed, options.out);
process.stdout.write(
  `wrote ${options.out}: ${options.orders} orders in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
