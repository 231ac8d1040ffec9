// Writes a validated import plan, kind by kind in docs/reference/import-format.md's order so that
// every reference is already stored when a row needs it. The caller runs this
// inside one transaction.

import type { SqlQuery } from "../db/sql-connection.js";
import {
  deleteChildrenBeyond,
  type Row,
  type UpsertCount,
  type UpsertSpec,
  upsertRows,
} from "../db/upsert.js";
import { catalogueKeys } from "../domain/product-identity.js";
import type { ImportPlan } from "./validate.js";

export interface KindCount extends UpsertCount {
  kind: string;
  /** Stored rows the file no longer has (resource values beyond the file's list). */
  deleted?: number;
}

/** Rows done so far out of all rows of the plan. */
export type ProgressListener = (done: number, total: number) => void;

const BOTH = ["created_at", "updated_at"] as const;
const BY_ID = ["id"] as const;

const SPECS = {
  buyers: {
    table: "buyers",
    columns: [
      ["id", "uuid"],
      ["name", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  apiKeys: {
    table: "api_keys",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["name", "text"],
      ["prefix", "text"],
      ["hash", "text"],
    ],
    conflict: ["hash"],
    // A stored key stays as it is (its name, its revocation); validation made sure it is the same buyer's.
    updatable: [],
    timestamps: [],
  },
  suppliers: {
    table: "suppliers",
    columns: [
      ["id", "uuid"],
      ["name", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  connections: {
    table: "supplier_connections",
    columns: [
      ["buyer_id", "uuid"],
      ["supplier_id", "uuid"],
      ["relationship", "text"],
    ],
    conflict: ["buyer_id", "supplier_id"],
    timestamps: [],
  },
  supplierUsers: {
    table: "supplier_users",
    columns: [
      ["id", "uuid"],
      ["supplier_id", "uuid"],
      ["first_name", "text"],
      ["last_name", "text"],
      ["contact_email", "text"],
      ["contact_email_key", "text"],
      ["created_by_buyer_id", "uuid"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  tagGroups: {
    table: "tag_groups",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["name", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  tags: {
    table: "tags",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["tag_group_id", "uuid"],
      ["name", "text"],
      ["category", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  products: {
    table: "products",
    columns: [
      ["id", "uuid"],
      ["name", "text"],
      ["normalized_name", "text"],
      ["code", "text"],
      ["normalized_code", "text"],
      ["cas_number", "text"],
      ["synonyms", "text[]"],
      ["normalized_synonyms", "text[]"],
      ["product_type", `"ProductType"`],
      // Imported products are curated: a product auto-match created that the import
      // rewrites becomes curated (its own text, no disputed numbers).
      ["disputed_cas_numbers", "text[]"],
      ["origin_buyer_product_id", "uuid"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  buyerProducts: {
    table: "buyer_products",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["product_id", "uuid"],
      ["raw_material_name", "text"],
      ["measurement_unit", `"MeasurementUnit"`],
      ["product_type", `"ProductType"`],
      ["raw_material_code", "text"],
      ["annual_usage", "integer"],
      ["typical_order_size", "integer"],
      ["frequency", "text"],
      ["container_type", `"ContainerType"`],
      ["target_approvals", "integer"],
      ["priority_product", "boolean"],
      ["active", "boolean"],
      ["document_types", `"DocumentType"[]`],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  buyerProductResourceValues: {
    table: "buyer_product_resource_values",
    columns: [
      ["buyer_product_id", "uuid"],
      ["position", "integer"],
      ["provider", "text"],
      ["value", "text"],
    ],
    conflict: ["buyer_product_id", "position"],
    timestamps: [],
  },
  approvals: {
    table: "buyer_product_approvals",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["buyer_product_id", "uuid"],
      ["supplier_id", "uuid"],
      ["approval_status", `"ApprovalStatus"`],
      ["supplier_name", "text"],
      ["catalogue_parent_display_name", "text"],
      ["catalogue_parent_product_code", "text"],
      ["reference", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  deliverySites: {
    table: "delivery_sites",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["site_name", "text"],
      ["address_street", "text"],
      ["address_city", "text"],
      ["address_state", "text"],
      ["address_postcode", "text"],
      ["address_country", "text"],
      ["address_full_address", "text"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  orderTypes: {
    table: "order_types",
    columns: [
      ["id", "uuid"],
      ["type_of", "text"],
    ],
    conflict: BY_ID,
    timestamps: ["created_at"],
  },
  orders: {
    table: "orders",
    columns: [
      ["id", "uuid"],
      ["buyer_id", "uuid"],
      ["supplier_id", "uuid"],
      ["buyer_product_approval_id", "uuid"],
      ["delivery_site_id", "uuid"],
      ["order_type_id", "uuid"],
      ["price_type", `"PriceType"`],
      ["quantity", "numeric"],
      ["price_per_uom", "numeric"],
      ["tax_amount", "numeric"],
      ["tax_percentage", "numeric"],
      ["price_total", "numeric"],
      ["currency", "text"],
      ["order_reference", "text"],
      ["order_status", `"OrderStatus"`],
      ["purchase_order_reference", "text"],
      ["supplier_order_reference", "text"],
      ["tracking_type", "text"],
      ["placed_at", "timestamptz"],
    ],
    conflict: BY_ID,
    timestamps: BOTH,
  },
  orderResourceValues: {
    table: "order_resource_values",
    columns: [
      ["order_id", "uuid"],
      ["position", "integer"],
      ["provider", "text"],
      ["value", "text"],
    ],
    conflict: ["order_id", "position"],
    timestamps: [],
  },
  taggings: {
    table: "taggings",
    columns: [
      ["taggable_id", "uuid"],
      ["tag_id", "uuid"],
      ["taggable_type", `"TaggableType"`],
      ["buyer_id", "uuid"],
    ],
    conflict: ["taggable_id", "tag_id"],
    timestamps: [],
  },
} satisfies Record<string, UpsertSpec>;

function resourceValueRows(
  parents: readonly { id: string; resource_values: readonly { provider: string; value: string }[] }[],
  parentColumn: string,
): Row[] {
  return parents.flatMap((parent) =>
    parent.resource_values.map((value, position) => ({
      [parentColumn]: parent.id,
      position,
      provider: value.provider,
      value: value.value,
    })),
  );
}

/** One kind of row to write: its spec and the plan's rows, as the table's columns. */
interface ImportStep {
  kind: string;
  spec: UpsertSpec;
  rows: Row[];
}

/** Writes `plan` and counts, per kind, the rows inserted, updated and left as they were. */
export async function writeImport(
  sql: SqlQuery,
  plan: ImportPlan,
  onProgress: ProgressListener = () => {},
): Promise<KindCount[]> {
  const steps = importSteps(plan);
  const total = steps.reduce((sum, step) => sum + step.rows.length, 0);
  let done = 0;
  onProgress(done, total);
  const counts: KindCount[] = [];
  for (const step of steps) {
    const count: KindCount = {
      kind: step.kind,
      ...(await upsertRows(sql, step.spec, step.rows, (rows) => {
        done += rows;
        onProgress(done, total);
      })),
    };
    if (step.spec === SPECS.buyerProductResourceValues) {
      count.deleted = await deleteChildrenBeyond(
        sql,
        { table: step.spec.table, parent: "buyer_product_id" },
        plan.buyerProducts.map((product) => ({ id: product.id, length: product.resource_values.length })),
      );
    } else if (step.spec === SPECS.orderResourceValues) {
      count.deleted = await deleteChildrenBeyond(
        sql,
        { table: step.spec.table, parent: "order_id" },
        plan.orders.map((order) => ({ id: order.id, length: order.resource_values.length })),
      );
    }
    counts.push(count);
  }
  return counts;
}

/** The plan's rows kind by kind, in the order that stores every reference before a row needs it. */
function importSteps(plan: ImportPlan): ImportStep[] {
  return [
    { kind: "buyers", spec: SPECS.buyers, rows: plan.buyers },
    {
      kind: "api keys",
      spec: SPECS.apiKeys,
      rows: plan.apiKeys.map((key) => ({ ...key, id: crypto.randomUUID(), name: "imported" })),
    },
    { kind: "suppliers", spec: SPECS.suppliers, rows: plan.suppliers },
    { kind: "supplier connections", spec: SPECS.connections, rows: plan.connections },
    { kind: "supplier users", spec: SPECS.supplierUsers, rows: plan.supplierUsers },
    { kind: "tag groups", spec: SPECS.tagGroups, rows: plan.tagGroups },
    { kind: "tags", spec: SPECS.tags, rows: plan.tags },
    { kind: "products", spec: SPECS.products, rows: plan.products.map(productRow) },
    { kind: "buyer products", spec: SPECS.buyerProducts, rows: plan.buyerProducts },
    {
      kind: "buyer product resource values",
      spec: SPECS.buyerProductResourceValues,
      rows: resourceValueRows(plan.buyerProducts, "buyer_product_id"),
    },
    { kind: "buyer product approvals", spec: SPECS.approvals, rows: plan.approvals },
    { kind: "delivery sites", spec: SPECS.deliverySites, rows: plan.deliverySites.map(deliverySiteRow) },
    { kind: "order types", spec: SPECS.orderTypes, rows: plan.orderTypes },
    { kind: "orders", spec: SPECS.orders, rows: plan.orders },
    {
      kind: "order resource values",
      spec: SPECS.orderResourceValues,
      rows: resourceValueRows(plan.orders, "order_id"),
    },
    { kind: "taggings", spec: SPECS.taggings, rows: plan.taggings },
  ];
}

/** A catalogue product with the keys products are matched by. */
function productRow(product: ImportPlan["products"][number]): Row {
  const keys = catalogueKeys({ ...product, productType: product.product_type });
  return {
    ...product,
    normalized_name: keys.normalizedName,
    normalized_code: keys.normalizedCode,
    normalized_synonyms: keys.normalizedSynonyms,
    disputed_cas_numbers: [],
    origin_buyer_product_id: null,
  };
}

/** A delivery site with its address in the site's own columns. */
function deliverySiteRow({ address, ...site }: ImportPlan["deliverySites"][number]): Row {
  return {
    ...site,
    address_street: address.street,
    address_city: address.city,
    address_state: address.state,
    address_postcode: address.postcode,
    address_country: address.country,
    address_full_address: address.full_address,
  };
}
