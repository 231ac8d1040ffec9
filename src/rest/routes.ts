import type { QueryParameter, RestRoute } from "./route.js";
import * as examples from "./route-examples.js";

// The v1 contract, one entry per endpoint, all data: each runs one GraphQL
// operation whose aliases already spell the contract's field names. To add a
// route, add an entry here (docs/contributing.md).

export { API_PREFIX } from "./route.js";

export const ORDER_FIELDS = `
  id url
  supplier_profile_id: supplierProfileId
  buyer_product_approval_id: buyerProductApprovalId
  price_type: priceType
  quantity
  price_per_uom: pricePerUom
  tax_amount: taxAmount
  tax_percentage: taxPercentage
  price_total: priceTotal
  currency
  profile_connection_relationship: profileConnectionRelationship
  order_reference: orderReference
  order_status: orderStatus
  purchase_order_reference: purchaseOrderReference
  supplier_order_reference: supplierOrderReference
  order_type: orderType { id type_of: typeOf }
  resource_values: resourceValues { provider value }
  tracking_type: trackingType
  additional_data: additionalData {
    product { buyer_product_display_name: buyerProductDisplayName }
    supplier { supplier_name: supplierName }
  }
  placed_at: placedAt
  created_at: createdAt
  updated_at: updatedAt
  delivery_site: deliverySite {
    id site_name: siteName
    address { street city state postcode country full_address: fullAddress }
  }`;

export const APPROVAL_FIELDS = `
  id
  approval_status: approvalStatus
  supplier_name: supplierName
  catalogue_parent_display_name: catalogueParentDisplayName
  catalogue_parent_product_code: catalogueParentProductCode
  reference
  buyer_product_id: buyerProductId
  supplier_profile_id: supplierProfileId
  created_at: createdAt
  updated_at: updatedAt`;

export const BUYER_PRODUCT_FIELDS = `
  id
  raw_material_name: rawMaterialName
  measurement_unit: measurementUnit
  product_type: productType
  raw_material_code: rawMaterialCode
  annual_usage: annualUsage
  typical_order_size: typicalOrderSize
  frequency
  container_type: containerType
  target_approvals: targetApprovals
  priority_product: priorityProduct
  active
  document_types: documentTypes
  resource_values: resourceValues { provider value }
  created_at: createdAt
  updated_at: updatedAt
  product_id: productId`;

export const SUPPLIER_USER_FIELDS = `
  id
  first_name: firstName
  last_name: lastName
  contact_email: contactEmail
  supplier_profile_id: supplierProfileId
  created_at: createdAt
  updated_at: updatedAt`;

const PAGE_PARAMETERS: QueryParameter[] = [
  {
    name: "limit",
    to: "first",
    form: "integer",
    schema: { minimum: 1, maximum: 500, default: 100 },
    example: 50,
  },
  {
    name: "cursor",
    to: "after",
    description:
      "Opaque: take it from the `Link` header of the previous page rather than building it. A cursor this API did not issue is 422.",
    example: "MjAyNS0wMy0wMVQwODowMDowMC4wMDBafGM0MWE3ZTkyLTViM2QtNGY2ZS1hOGMxLTlkMGUyZjRhNmI4Mw",
  },
];

const PAGINATION = `Newest first (\`created_at\`, then \`id\`, descending). The body is always a bare JSON array. Pages hold \`limit\` items (100 unless asked); when more follow, the response has \`Link: <url>; rel="next"\`: request that URL for the next page.`;

export const TAG_DESCRIPTIONS: Record<string, string> = {
  "Supplier users": "People at the suppliers your organisation is connected to.",
  Taggings: "Your organisation's tags on its records.",
  "Buyer products": "Products as your organisation buys them, matched to the catalogue.",
  Orders: "Your organisation's orders.",
  "Buyer product approvals": "Which suppliers' materials are approved for your buyer products.",
};

export const routes: RestRoute[] = [
  {
    operationId: "createSupplierUser",
    method: "POST",
    path: "/suppliers/{supplier_id}/users",
    document: `mutation CreateSupplierUser($input: CreateSupplierUserInput!) {
      result: createSupplierUser(input: $input) { ${SUPPLIER_USER_FIELDS} }
    }`,
    pathParameters: {
      supplier_id: {
        to: "input.supplier_id",
        description: "It appears as `supplier_profile_id` on orders and approvals.",
        example: examples.EXAMPLE_IDS.SUPPLIER_ID,
      },
    },
    body: {
      to: "input",
      fields: { contact_email: { format: "email" } },
      example: examples.createSupplierUserRequest,
    },
    response: { kind: "object", at: "result" },
    success: { status: 201, description: "The supplier user, created.", example: examples.supplierUser },
    summary: "Create a supplier user",
    tag: "Supplier users",
    description:
      "Creates a user under one of the suppliers your organisation is connected to. Names and email are trimmed. An email may be used once per supplier, regardless of case. Send `Idempotency-Key` to make retries safe.",
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
  {
    operationId: "attachTags",
    method: "POST",
    path: "/taggings",
    document: `mutation AttachTags($input: AttachTagsInput!) {
      result: attachTags(input: $input) {
        taggable_type: taggableType
        taggable_id: taggableId
        added_tag_ids: addedTagIds
        tags { id name category tag_group: tagGroup { id name } }
      }
    }`,
    body: {
      to: "input",
      fields: { tag_ids: { minItems: 1, maxItems: 100 } },
      example: examples.attachTagsRequest,
    },
    response: { kind: "object", at: "result" },
    success: { status: 201, description: "The tags now on the record.", example: examples.taggingResult },
    summary: "Attach tags to a record",
    tag: "Taggings",
    description:
      "Attaches your organisation's tags to one of its records. A taggable record is any record of your organisation: a buyer product, an order, a buyer product approval, or a supplier user your organisation created. `added_tag_ids` lists only the tags this call attached, `tags` every tag now on the record.",
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
  {
    operationId: "createBuyerProduct",
    method: "POST",
    path: "/buyer_products",
    document: `mutation CreateBuyerProduct($input: CreateBuyerProductInput!) {
      result: createBuyerProduct(input: $input) {
        buyerProduct { ${BUYER_PRODUCT_FIELDS} }
        auto_match: autoMatch { matched strategy score }
      }
    }`,
    body: {
      to: "input",
      fields: {
        annual_usage: { minimum: 0 },
        typical_order_size: { minimum: 0 },
        target_approvals: { minimum: 0 },
        document_types: { uniqueItems: true },
        resource_values: { maxItems: 50 },
      },
      example: examples.createBuyerProductRequest,
    },
    response: { kind: "object", at: "result", spread: "buyerProduct" },
    success: {
      status: 201,
      description:
        "The buyer product, created; with a new catalogue product when no match was found (`auto_match.matched` is false).",
      example: examples.createdBuyerProduct,
    },
    summary: "Create a buyer product (with auto-match)",
    tag: "Buyer products",
    description: `Creates a buyer product and matches it to a catalogue product; the first rule that hits wins:

1. a valid CAS registry number (check digit verified) in \`raw_material_code\` or \`raw_material_name\` equals a catalogue product's CAS number;
2. \`raw_material_code\` equals a catalogue product's code, ignoring case;
3. the normalised name equals a catalogue product's, same \`product_type\`;
4. the normalised name equals one of a catalogue product's synonyms, same \`product_type\`;
5. the names are at least 0.8 similar (trigrams), same \`product_type\`; the best score wins.

When nothing matches, a catalogue product is created from the buyer product. \`auto_match\` in the response says which rule matched, and \`product_id\` names the catalogue product. Send \`Idempotency-Key\` to make retries safe.`,
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
  {
    operationId: "listOrders",
    method: "GET",
    path: "/orders",
    document: `query ListOrders($first: Int, $after: String, $filter: OrderFilter) {
      orders(first: $first, after: $after, filter: $filter) {
        edges { node { ${ORDER_FIELDS} } }
        pageInfo { hasNextPage endCursor }
      }
    }`,
    query: [
      ...PAGE_PARAMETERS,
      {
        name: "created_at_from",
        to: "filter.created_at_from",
        description: "`YYYY-MM-DD`, a whole UTC day.",
        example: "2025-01-01",
      },
      {
        name: "created_at_to",
        to: "filter.created_at_to",
        description: "`YYYY-MM-DD`, a whole UTC day; not before `created_at_from`.",
        example: "2025-03-31",
      },
      {
        name: "order_status",
        to: "filter.order_status",
        form: "list",
        description:
          "Repeat it for several: `order_status[]=order_placed&order_status[]=in_transit`. `order_status=order_placed,in_transit` is accepted too.",
        example: ["order_placed", "in_transit"],
      },
    ],
    response: { kind: "list", at: "orders" },
    success: { status: 200, description: "A page of orders, newest first.", example: [examples.order] },
    summary: "List orders",
    tag: "Orders",
    description: `Your organisation's orders, optionally filtered by creation day and status. ${PAGINATION}`,
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [
          { field: "order_status", code: "invalid", message: "must be one of: delivered, in_port, …" },
        ],
      },
    },
  },
  {
    operationId: "updateOrder",
    method: "PATCH",
    path: "/orders/{id}",
    document: `mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {
      result: updateOrder(id: $id, input: $input) { ${ORDER_FIELDS} }
    }`,
    pathParameters: {
      id: {
        to: "id",
        description: "An id that is not a UUID is 404.",
        example: examples.EXAMPLE_IDS.ORDER_ID,
      },
    },
    body: {
      to: "input",
      fields: {
        purchase_order_reference: { acceptsNull: true },
        supplier_order_reference: { acceptsNull: true },
        resource_values: { maxItems: 50 },
      },
      example: examples.updateOrderRequest,
    },
    response: { kind: "object", at: "result" },
    success: { status: 200, description: "The order, updated.", example: examples.updatedOrder },
    summary: "Update an order",
    tag: "Orders",
    description: `Changes one of your organisation's orders; every change is recorded as an order event. Absent fields are left as they are; \`purchase_order_reference\` and \`supplier_order_reference\` may be set to null to clear them; \`resource_values\` replaces the whole list. An empty body changes nothing and returns the order.

The status moves forward only: \`quote_selected\` → \`order_placed\` → \`order_confirmed\` → the logistics stages (\`shipped\`, \`in_transit\`, \`in_port\`, \`in_warehouse\`, in any order among themselves) → \`delivered\`, which is final. It may skip stages. Setting the current status again changes nothing. Moving to \`order_placed\` or later sets \`placed_at\` to now when it is still null.`,
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
  {
    operationId: "listBuyerProductApprovals",
    method: "GET",
    path: "/buyer_product_approvals",
    document: `query ListBuyerProductApprovals($first: Int, $after: String, $filter: BuyerProductApprovalFilter) {
      buyerProductApprovals(first: $first, after: $after, filter: $filter) {
        edges { node { ${APPROVAL_FIELDS} } }
        pageInfo { hasNextPage endCursor }
      }
    }`,
    query: [
      ...PAGE_PARAMETERS,
      {
        name: "approval_status",
        to: "filter.approval_status",
        form: "list",
        description: "Repeat it for several. `approval_status=approved,preferred` is accepted too.",
        example: ["approved", "preferred"],
      },
      {
        name: "buyer_product_id",
        to: "filter.buyer_product_id",
        example: examples.EXAMPLE_IDS.BUYER_PRODUCT_ID,
      },
    ],
    response: { kind: "list", at: "buyerProductApprovals" },
    success: {
      status: 200,
      description: "A page of buyer product approvals, newest first.",
      example: [examples.approval],
    },
    summary: "List buyer product approvals",
    tag: "Buyer product approvals",
    description: `Your organisation's buyer product approvals, optionally filtered by status and buyer product. ${PAGINATION}`,
  },
  {
    operationId: "getOrder",
    method: "GET",
    path: "/orders/{id}",
    document: `query GetOrder($id: UUID!) {
      result: order(id: $id) { ${ORDER_FIELDS} }
    }`,
    pathParameters: {
      id: {
        to: "id",
        description: "An id that is not a UUID is 404.",
        example: examples.EXAMPLE_IDS.ORDER_ID,
      },
    },
    response: { kind: "object", at: "result" },
    success: { status: 200, description: "The order.", example: examples.order },
    summary: "Get an order",
    tag: "Orders",
    description:
      "One of your organisation's orders, as the list shows it: for instance after an `order.updated` event.",
    problems: { not_found: "The order does not exist, is not your organisation's, or its id is not a UUID." },
  },
  {
    operationId: "getBuyerProduct",
    method: "GET",
    path: "/buyer_products/{id}",
    document: `query GetBuyerProduct($id: UUID!) {
      result: buyerProduct(id: $id) { ${BUYER_PRODUCT_FIELDS} }
    }`,
    pathParameters: {
      id: {
        to: "id",
        description: "An id that is not a UUID is 404.",
        example: examples.EXAMPLE_IDS.BUYER_PRODUCT_ID,
      },
    },
    response: { kind: "object", at: "result" },
    success: { status: 200, description: "The buyer product.", example: examples.buyerProduct },
    summary: "Get a buyer product",
    tag: "Buyer products",
    description: "One of your organisation's buyer products.",
    problems: {
      not_found: "The buyer product does not exist, is not your organisation's, or its id is not a UUID.",
    },
  },
  {
    operationId: "getBuyerProductApproval",
    method: "GET",
    path: "/buyer_product_approvals/{id}",
    document: `query GetBuyerProductApproval($id: UUID!) {
      result: buyerProductApproval(id: $id) { ${APPROVAL_FIELDS} }
    }`,
    pathParameters: {
      id: {
        to: "id",
        description: "An id that is not a UUID is 404.",
        example: examples.EXAMPLE_IDS.APPROVAL_ID,
      },
    },
    response: { kind: "object", at: "result" },
    success: { status: 200, description: "The buyer product approval.", example: examples.approval },
    summary: "Get a buyer product approval",
    tag: "Buyer product approvals",
    description: "One of your organisation's buyer product approvals.",
    problems: {
      not_found: "The approval does not exist, is not your organisation's, or its id is not a UUID.",
    },
  },
];
