import * as examples from "./examples.js";
import type { ProblemCode, ProblemExample } from "./problems.js";
import type { BodyFieldHint } from "./request-schema.js";
import type { JsonSchema, JsonValue } from "./types.js";

// What the route table cannot say about each operation, keyed by operationId.
// Field names, types, enums, requiredness and field descriptions are NOT here:
// the generator reads them from the GraphQL schema and the route documents.

export interface QueryParameterDoc {
  /** As a client writes it: `limit`, `order_status[]`. Its type comes from the variable it feeds. */
  name: string;
  /** Other names the route reads for the same thing. */
  aliases?: string[];
  /** Said after the GraphQL description of what it feeds. */
  description?: string;
  /** Limits the GraphQL type cannot carry. */
  schema?: Pick<JsonSchema, "minimum" | "maximum" | "default">;
  example: string | number | string[];
}

export interface RouteDoc {
  tag: string;
  /**
   * What the operation does, in REST terms (markdown). The GraphQL field's
   * description speaks of GraphQL error extensions and subscriptions, so it is
   * not reused here; field descriptions are.
   */
  description: string;
  /** `description` is said after the GraphQL description of what the parameter feeds. */
  pathParameters?: Record<string, { description: string; example: string }>;
  query?: QueryParameterDoc[];
  /** Keyed by body field (REST spelling). */
  bodyFields?: Record<string, BodyFieldHint>;
  requestExample?: JsonValue;
  success: { description: string; example: JsonValue };
  /**
   * Problems this operation itself can return, with when, beyond those every
   * request of its method and path can (problems.ts); or a more precise "when"
   * for one of those.
   */
  problems?: Partial<Record<ProblemCode, string>>;
  problemExamples?: Partial<Record<ProblemCode, ProblemExample>>;
}

const PAGE_PARAMETERS: QueryParameterDoc[] = [
  { name: "limit", schema: { minimum: 1, maximum: 500, default: 100 }, example: 50 },
  {
    name: "cursor",
    description:
      "Opaque: take it from the `Link` header of the previous page rather than building it. A cursor this API did not issue is 422.",
    example: "MjAyNS0wMy0wMVQwODowMDowMC4wMDBafGM0MWE3ZTkyLTViM2QtNGY2ZS1hOGMxLTlkMGUyZjRhNmI4Mw",
  },
];

const PAGINATION = `Newest first (\`created_at\`, then \`id\`, descending). The body is always a bare JSON array. Pages hold \`limit\` items (100 unless asked); when more follow, the response has \`Link: <url>; rel="next"\`: request that URL for the next page.`;

export const routeDocs: Record<string, RouteDoc> = {
  createSupplierUser: {
    tag: "Supplier users",
    description:
      "Creates a user under one of the suppliers your organisation is connected to. Names and email are trimmed. An email may be used once per supplier, regardless of case. Send `Idempotency-Key` to make retries safe.",
    pathParameters: {
      supplier_id: {
        description: "It appears as `supplier_profile_id` on orders and approvals.",
        example: examples.EXAMPLE_IDS.SUPPLIER_ID,
      },
    },
    bodyFields: { contact_email: { format: "email" } },
    requestExample: examples.createSupplierUserRequest,
    success: { description: "The supplier user, created.", example: examples.supplierUser },
    problems: {
      not_found:
        "The supplier does not exist, is not connected to your organisation, or its id is not a UUID.",
      already_exists: "A user with this email (ignoring case) already exists under this supplier.",
    },
    problemExamples: {
      not_found: { detail: "Supplier not found" },
      validation_failed: {
        detail: "",
        errors: [
          { field: "first_name", code: "required", message: "is required" },
          { field: "contact_email", code: "invalid", message: "must be a valid email address" },
        ],
      },
    },
  },
  attachTags: {
    tag: "Taggings",
    description:
      "Attaches your organisation's tags to one of its records. A taggable record is any record of your organisation: a buyer product, an order, a buyer product approval, or a supplier user your organisation created. `added_tag_ids` lists only the tags this call attached, `tags` every tag now on the record.",
    bodyFields: { tag_ids: { minItems: 1, maxItems: 100 } },
    requestExample: examples.attachTagsRequest,
    success: { description: "The tags now on the record.", example: examples.taggingResult },
    problems: {
      not_found: "The record to tag does not exist or is not your organisation's.",
      validation_failed:
        "Fields are missing or invalid; a tag that is not your organisation's is named as `tag_ids[i]` with code `not_found`.",
    },
    problemExamples: {
      not_found: { detail: "Taggable record not found" },
      validation_failed: {
        detail: "",
        errors: [{ field: "tag_ids[1]", code: "not_found", message: "is not one of the buyer's tags" }],
      },
    },
  },
  createBuyerProduct: {
    tag: "Buyer products",
    description: `Creates a buyer product and matches it to a catalogue product; the first rule that hits wins:

1. a valid CAS registry number (check digit verified) in \`raw_material_code\` or \`raw_material_name\` equals a catalogue product's CAS number;
2. \`raw_material_code\` equals a catalogue product's code, ignoring case;
3. the normalised name equals a catalogue product's, same \`product_type\`;
4. the normalised name equals one of a catalogue product's synonyms, same \`product_type\`;
5. the names are at least 0.8 similar (trigrams), same \`product_type\`; the best score wins.

When nothing matches, a catalogue product is created from the buyer product. \`auto_match\` in the response says which rule matched, and \`product_id\` names the catalogue product. Send \`Idempotency-Key\` to make retries safe.`,
    bodyFields: {
      annual_usage: { minimum: 0 },
      typical_order_size: { minimum: 0 },
      target_approvals: { minimum: 0 },
      document_types: { uniqueItems: true },
      resource_values: { maxItems: 50 },
    },
    requestExample: examples.createBuyerProductRequest,
    success: {
      description:
        "The buyer product, created; with a new catalogue product when no match was found (`auto_match.matched` is false).",
      example: examples.createdBuyerProduct,
    },
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [
          { field: "measurement_unit", code: "invalid", message: "must be one of: EA, g, kg, L, MT, mL" },
          { field: "annual_usage", code: "out_of_range", message: "must be zero or more" },
        ],
      },
    },
  },
  listOrders: {
    tag: "Orders",
    description: `Your organisation's orders, optionally filtered by creation day and status. ${PAGINATION}`,
    query: [
      ...PAGE_PARAMETERS,
      { name: "created_at_from", description: "`YYYY-MM-DD`, a whole UTC day.", example: "2025-01-01" },
      {
        name: "created_at_to",
        description: "`YYYY-MM-DD`, a whole UTC day; not before `created_at_from`.",
        example: "2025-03-31",
      },
      {
        name: "order_status[]",
        aliases: ["order_status"],
        description:
          "Repeat it for several: `order_status[]=order_placed&order_status[]=in_transit`. `order_status=order_placed,in_transit` is accepted too.",
        example: ["order_placed", "in_transit"],
      },
    ],
    success: { description: "A page of orders, newest first.", example: [examples.order] },
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [
          { field: "order_status", code: "invalid", message: "must be one of: delivered, in_port, …" },
        ],
      },
    },
  },
  updateOrder: {
    tag: "Orders",
    description: `Changes one of your organisation's orders; every change is recorded as an order event. Absent fields are left as they are; \`purchase_order_reference\` and \`supplier_order_reference\` may be set to null to clear them; \`resource_values\` replaces the whole list. An empty body changes nothing and returns the order.

The status moves forward only: \`quote_selected\` → \`order_placed\` → \`order_confirmed\` → the logistics stages (\`shipped\`, \`in_transit\`, \`in_port\`, \`in_warehouse\`, in any order among themselves) → \`delivered\`, which is final. It may skip stages. Setting the current status again changes nothing. Moving to \`order_placed\` or later sets \`placed_at\` to now when it is still null.`,
    pathParameters: {
      id: { description: "An id that is not a UUID is 404.", example: examples.EXAMPLE_IDS.ORDER_ID },
    },
    bodyFields: {
      purchase_order_reference: { acceptsNull: true },
      supplier_order_reference: { acceptsNull: true },
      resource_values: { maxItems: 50 },
    },
    requestExample: examples.updateOrderRequest,
    success: { description: "The order, updated.", example: examples.updatedOrder },
    problems: {
      not_found: "The order does not exist, is not your organisation's, or its id is not a UUID.",
      invalid_transition:
        "The status cannot move as asked (backwards, or out of `delivered`); `allowed_statuses` lists where it can go.",
    },
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [
          {
            field: "placed_at",
            code: "invalid",
            message: "must be a date-time such as 2025-01-31T09:30:00.000Z",
          },
        ],
      },
    },
  },
  listBuyerProductApprovals: {
    tag: "Buyer product approvals",
    description: `Your organisation's buyer product approvals, optionally filtered by status and buyer product. ${PAGINATION}`,
    query: [
      ...PAGE_PARAMETERS,
      {
        name: "approval_status[]",
        aliases: ["approval_status"],
        description: "Repeat it for several. `approval_status=approved,preferred` is accepted too.",
        example: ["approved", "preferred"],
      },
      { name: "buyer_product_id", example: examples.EXAMPLE_IDS.BUYER_PRODUCT_ID },
    ],
    success: {
      description: "A page of buyer product approvals, newest first.",
      example: [examples.approval],
    },
  },
};

export const TAG_DESCRIPTIONS: Record<string, string> = {
  "Supplier users": "People at the suppliers your organisation is connected to.",
  Taggings: "Your organisation's tags on its records.",
  "Buyer products": "Products as your organisation buys them, matched to the catalogue.",
  Orders: "Your organisation's orders.",
  "Buyer product approvals": "Which suppliers' materials are approved for your buyer products.",
};
