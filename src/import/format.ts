// The shape of one record of each kind in an import file (docs/reference/import-format.md).
// Field names and enum spellings are the REST contract's; records are strict so
// that a misspelt optional field is reported instead of silently dropped.
import { z } from "zod";
import {
  APPROVAL_STATUSES,
  CONTAINER_TYPES,
  DOCUMENT_TYPES,
  MEASUREMENT_UNITS,
  ORDER_STATUSES,
  PRICE_TYPES,
  PRODUCT_TYPES,
} from "../domain/contract-vocabulary.js";
import { isValidCasNumber } from "../domain/product-identity.js";

export const API_KEY_PATTERN = /^bpk_[A-Za-z0-9_-]{32,}$/;
const MAX_TEXT = 255;
const MAX_INT = 2_147_483_647;

// Ids are compared as strings across the file and the database, which prints lowercase.
const id = z.uuid().transform((value) => value.toLowerCase());
const text = z.string().trim().min(1).max(MAX_TEXT);
const optionalText = text.nullish().transform((value) => value ?? null);
const timestamp = z.iso.datetime({ offset: true });
const optionalTimestamp = timestamp.nullish().transform((value) => value ?? null);
const count = z.number().int().min(0).max(MAX_INT);
const optionalCount = count.nullish().transform((value) => value ?? null);

function oneOf(values: readonly string[]) {
  return z.enum(values as [string, ...string[]]);
}

const NUMERIC_TEXT = /^(\d+)(?:\.(\d+))?$/;

/**
 * An exact non-negative decimal for a NUMERIC(precision, scale) column, kept as
 * text so that no digit is lost or rounded on the way to the database. JSON
 * numbers are read through their shortest round-trip spelling, which is the
 * spelling in the file for every value a double holds exactly enough.
 */
function decimal(precision: number, scale: number) {
  const integerDigits = precision - scale;
  return z.unknown().transform((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    const spelled = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
    if (typeof spelled !== "string") {
      ctx.addIssue({ code: "custom", message: "must be a number" });
      return z.NEVER;
    }
    const match = NUMERIC_TEXT.exec(spelled.trim());
    if (!match) {
      ctx.addIssue({
        code: "custom",
        message: `must be a non-negative number with at most ${integerDigits} digits before and ${scale} after the decimal point`,
      });
      return z.NEVER;
    }
    const whole = (match[1] ?? "").replace(/^0+(?=\d)/, "");
    const fraction = match[2] ?? "";
    if (whole.length > integerDigits || fraction.replace(/0+$/, "").length > scale) {
      ctx.addIssue({
        code: "custom",
        message: `must have at most ${integerDigits} digits before and ${scale} after the decimal point`,
      });
      return z.NEVER;
    }
    return fraction === "" ? whole : `${whole}.${fraction}`;
  });
}

const casNumber = z
  .string()
  .trim()
  .refine(isValidCasNumber, { message: "must be a CAS registry number with a valid check digit" });

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const currency = z.string().refine((value) => KNOWN_CURRENCIES.has(value), {
  message: "must be an ISO 4217 currency code such as AUD",
});

const resourceValue = z.strictObject({ provider: text, value: text });
const resourceValues = z
  .array(resourceValue)
  .max(50)
  .nullish()
  .transform((value) => value ?? []);

const timestamps = { created_at: optionalTimestamp, updated_at: optionalTimestamp };

export const buyerRecord = z.strictObject({
  id,
  name: text,
  api_keys: z
    .array(z.string().regex(API_KEY_PATTERN, "must be bpk_ followed by at least 32 URL-safe characters"))
    .nullish()
    .transform((value) => value ?? []),
  ...timestamps,
});

export const supplierRecord = z.strictObject({
  id,
  name: text,
  connections: z
    .array(z.strictObject({ buyer_id: id, relationship: text }))
    .nullish()
    .transform((value) => value ?? []),
  ...timestamps,
});

export const supplierUserRecord = z.strictObject({
  id,
  supplier_id: id,
  first_name: text.nullable(),
  last_name: text.nullable(),
  contact_email: z
    .string()
    .trim()
    .max(MAX_TEXT)
    .pipe(z.email({ message: "must be a valid email address" })),
  created_by_buyer_id: id.nullish().transform((value) => value ?? null),
  ...timestamps,
});

export const tagGroupRecord = z.strictObject({ id, buyer_id: id, name: text, ...timestamps });

export const tagRecord = z.strictObject({
  id,
  buyer_id: id,
  tag_group_id: id,
  name: text,
  category: text,
  ...timestamps,
});

export const productRecord = z.strictObject({
  id,
  name: text,
  product_type: oneOf(PRODUCT_TYPES),
  code: optionalText,
  cas_number: casNumber.nullish().transform((value) => value ?? null),
  synonyms: z
    .array(text)
    .max(100)
    .nullish()
    .transform((value) => value ?? []),
  ...timestamps,
});

export const buyerProductRecord = z.strictObject({
  id,
  buyer_id: id,
  product_id: id,
  raw_material_name: text,
  measurement_unit: oneOf(MEASUREMENT_UNITS),
  product_type: oneOf(PRODUCT_TYPES),
  raw_material_code: optionalText,
  annual_usage: optionalCount,
  typical_order_size: optionalCount,
  frequency: optionalText,
  container_type: oneOf(CONTAINER_TYPES)
    .nullish()
    .transform((value) => value ?? null),
  target_approvals: optionalCount,
  priority_product: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  active: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
  document_types: z
    .array(oneOf(DOCUMENT_TYPES))
    .refine((items) => new Set(items).size === items.length, { message: "must not repeat a document type" })
    .nullish()
    .transform((value) => value ?? []),
  resource_values: resourceValues,
  ...timestamps,
});

export const approvalRecord = z.strictObject({
  id,
  buyer_product_id: id,
  supplier_id: id.nullish().transform((value) => value ?? null),
  approval_status: oneOf(APPROVAL_STATUSES),
  supplier_name: optionalText,
  catalogue_parent_display_name: optionalText,
  catalogue_parent_product_code: optionalText,
  reference: optionalText,
  ...timestamps,
});

export const deliverySiteRecord = z.strictObject({
  id,
  buyer_id: id,
  site_name: text,
  address: z.strictObject({
    street: text,
    city: text,
    state: text,
    postcode: text,
    country: text,
    full_address: z.string().trim().min(1).max(1000),
  }),
  ...timestamps,
});

export const orderTypeRecord = z.strictObject({ id, type_of: text, created_at: optionalTimestamp });

export const orderRecord = z.strictObject({
  id,
  buyer_id: id,
  supplier_id: id,
  buyer_product_approval_id: id,
  delivery_site_id: id,
  order_type_id: id,
  price_type: oneOf(PRICE_TYPES),
  quantity: decimal(20, 6),
  price_per_uom: decimal(20, 6),
  tax_amount: decimal(20, 6),
  tax_percentage: decimal(9, 4),
  price_total: decimal(20, 6),
  currency,
  order_reference: optionalText,
  order_status: oneOf(ORDER_STATUSES),
  purchase_order_reference: optionalText,
  supplier_order_reference: optionalText,
  resource_values: resourceValues,
  tracking_type: optionalText,
  placed_at: optionalTimestamp,
  ...timestamps,
});

export const taggingRecord = z.strictObject({ taggable_id: id, tag_id: id });

/** The top-level keys in the order they are written, so that references resolve. */
export const RECORD_SCHEMAS = {
  buyers: buyerRecord,
  suppliers: supplierRecord,
  supplier_users: supplierUserRecord,
  tag_groups: tagGroupRecord,
  tags: tagRecord,
  products: productRecord,
  buyer_products: buyerProductRecord,
  buyer_product_approvals: approvalRecord,
  delivery_sites: deliverySiteRecord,
  order_types: orderTypeRecord,
  orders: orderRecord,
  taggings: taggingRecord,
} as const;

export type RecordKind = keyof typeof RECORD_SCHEMAS;
export const RECORD_KINDS = Object.keys(RECORD_SCHEMAS) as RecordKind[];
export const TOP_LEVEL_KEYS: readonly string[] = ["version", ...RECORD_KINDS];

export type BuyerRecord = z.output<typeof buyerRecord>;
export type SupplierRecord = z.output<typeof supplierRecord>;
export type SupplierUserRecord = z.output<typeof supplierUserRecord>;
export type TagGroupRecord = z.output<typeof tagGroupRecord>;
export type TagRecord = z.output<typeof tagRecord>;
export type ProductRecord = z.output<typeof productRecord>;
export type BuyerProductRecord = z.output<typeof buyerProductRecord>;
export type ApprovalRecord = z.output<typeof approvalRecord>;
export type DeliverySiteRecord = z.output<typeof deliverySiteRecord>;
export type OrderTypeRecord = z.output<typeof orderTypeRecord>;
export type OrderRecord = z.output<typeof orderRecord>;
export type TaggingRecord = z.output<typeof taggingRecord>;

export type ParsedRecords = { [K in RecordKind]: z.output<(typeof RECORD_SCHEMAS)[K]> };
