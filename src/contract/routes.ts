import { APPROVAL_FILTERS } from "../schema/types/approval.js";
import { ORDER_FILTERS } from "../schema/types/order.js";
import { EVENT_FILTERS } from "../schema/types/webhook-event.js";
import type { JsonValue, QueryParameter, RestRoute } from "./route.js";
import * as examples from "./route-examples.js";

// The v1 contract, one entry per endpoint, all data: each runs one GraphQL
// operation. To add a route, add an entry here (docs/design/contributing.md).

export { API_PREFIX } from "./route.js";

// Selections in GraphQL's names; the adapter answers each field in snake_case.
export const ORDER_FIELDS = `id: databaseId url supplierProfileId buyerProductApprovalId priceType quantity pricePerUom taxAmount
  taxPercentage priceTotal currency profileConnectionRelationship orderReference orderStatus
  purchaseOrderReference supplierOrderReference orderType { id typeOf } resourceValues { provider value }
  trackingType additionalData { product { buyerProductDisplayName } supplier { supplierName } }
  placedAt createdAt updatedAt
  deliverySite { id siteName address { street city state postcode country fullAddress } }`;

export const APPROVAL_FIELDS = `id: databaseId approvalStatus supplierName catalogueParentDisplayName catalogueParentProductCode
  reference buyerProductId supplierProfileId createdAt updatedAt`;

export const BUYER_PRODUCT_FIELDS = `id: databaseId rawMaterialName measurementUnit productType rawMaterialCode annualUsage
  typicalOrderSize frequency containerType targetApprovals priorityProduct active documentTypes
  resourceValues { provider value } createdAt updatedAt productId`;

export const TAGGING_FIELDS =
  "taggableType taggableId addedTagIds tags { id name category tagGroup { id name } }";

const EVENT_FIELDS = "id type createdAt data";

const WEBHOOK_ENDPOINT_FIELDS = `id url description enabledEvents status failingSince disabledAt disabledReason
  createdAt updatedAt`;

const DELIVERY_FIELDS = `id endpointId eventId eventType status attemptCount nextAttemptAt succeededAt
  attempts { attempt statusCode durationMs error nextRetryAt createdAt } createdAt updatedAt`;

export const SUPPLIER_USER_FIELDS =
  "id: databaseId firstName lastName contactEmail supplierProfileId createdAt updatedAt";

const PAGE_PARAMETERS: QueryParameter[] = [
  { name: "limit", to: "first", schema: { minimum: 1, maximum: 500, default: 100 }, example: 50 },
  {
    name: "cursor",
    to: "after",
    description:
      "Opaque: take it from the `Link` header of the previous page rather than building it. A cursor this API did not issue is 422.",
    example: "MjAyNS0wMy0wMVQwODowMDowMC4wMDBafGM0MWE3ZTkyLTViM2QtNGY2ZS1hOGMxLTlkMGUyZjRhNmI4Mw",
  },
];

const PAGINATION = `Newest first (\`created_at\`, then \`id\`, descending). The body is always a bare JSON array. Pages hold \`limit\` items (100 unless asked); when more follow, the response has \`Link: <url>; rel="next"\`: request that URL for the next page.`;

/** A list's GraphQL document: a page of `field`'s nodes and where the next page starts; `filterType` adds `filter`. */
function pageDocument(operation: string, field: string, fields: string, filterType?: string): string {
  const variable = filterType ? `, $filter: ${filterType}` : "";
  const argument = filterType ? ", filter: $filter" : "";
  return `query ${operation}($first: Int, $after: String${variable}) {
      ${field}(first: $first, after: $after${argument}) {
        edges { node { ${fields} } } pageInfo { hasNextPage endCursor } } }`;
}

/**
 * `GET /<collection>/{id}`: one of the organisation's records, by its UUID or
 * global ID, through the schema's field for one record (`getBuyerProduct`
 * runs `buyerProduct(id:)`); the summary, tag and problems follow from the
 * collection's name.
 */
function recordRoute(read: {
  operationId: `get${string}`;
  collection: string;
  fields: string;
  idExample: string;
  example: JsonValue;
  description: string;
  /** How the not-found problem names the record, when not as the collection's singular. */
  notFoundName?: string;
}): RestRoute {
  const type = read.operationId.slice("get".length);
  const words = read.collection.replace(/_/g, " ");
  const noun = words.replace(/s$/, "");
  return {
    operationId: read.operationId,
    method: "GET",
    path: `/${read.collection}/{id}`,
    document: `query Get${type}($id: UUID!) { ${type.charAt(0).toLowerCase()}${type.slice(1)}(id: $id) { ${read.fields} } }`,
    pathParameters: { id: { example: read.idExample } },
    success: { description: `The ${noun}.`, example: read.example },
    summary: `Get ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`,
    tag: words.charAt(0).toUpperCase() + words.slice(1),
    description: read.description,
    problems: {
      not_found: `The ${read.notFoundName ?? noun} does not exist or is not your organisation's, or the id is neither its UUID nor its global ID.`,
    },
  };
}

export const TAG_DESCRIPTIONS: Record<string, string> = {
  "Supplier users": "People at the suppliers your organisation is connected to.",
  Taggings: "Your organisation's tags on its records.",
  "Buyer products": "Products as your organisation buys them, matched to the catalogue.",
  Orders: "Your organisation's orders.",
  "Buyer product approvals": "Which suppliers' materials are approved for your buyer products.",
  Events: "What changed in your organisation's records, kept 30 days (docs/reference/webhooks.md).",
  "Webhook endpoints":
    "URLs your organisation's events are posted to, signed under the Standard Webhooks specification.",
  Webhooks:
    "The requests your webhook endpoints receive: one per event type, each a signed POST of the event.",
};

export const routes: RestRoute[] = [
  {
    operationId: "createSupplierUser",
    method: "POST",
    path: "/suppliers/{supplier_id}/users",
    document: `mutation CreateSupplierUser($input: CreateSupplierUserInput!) {
      createSupplierUser(input: $input) { ${SUPPLIER_USER_FIELDS} } }`,
    pathParameters: {
      supplier_id: {
        description: "It appears as `supplier_profile_id` on orders and approvals.",
        example: examples.EXAMPLE_IDS.SUPPLIER_ID,
      },
    },
    body: { fields: { contact_email: { format: "email" } }, example: examples.createSupplierUserRequest },
    success: { description: "The supplier user, created.", example: examples.supplierUser },
    summary: "Create a supplier user",
    tag: "Supplier users",
    description:
      "Creates a user under one of the suppliers your organisation is connected to. Names and email are trimmed. An email may be used once per supplier, regardless of case. Send `Idempotency-Key` to make retries safe.",
    problems: {
      not_found:
        "The supplier does not exist or is not connected to your organisation, or the id is neither its UUID nor its global ID.",
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
      attachTags(input: $input) { ${TAGGING_FIELDS} } }`,
    body: { fields: { tag_ids: { minItems: 1, maxItems: 100 } }, example: examples.attachTagsRequest },
    success: { description: "The tags now on the record.", example: examples.taggingResult },
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
      createBuyerProduct(input: $input) { buyerProduct { ${BUYER_PRODUCT_FIELDS} } autoMatch { matched strategy score } } }`,
    body: {
      fields: {
        annual_usage: { minimum: 0 },
        typical_order_size: { minimum: 0 },
        target_approvals: { minimum: 0 },
        document_types: { uniqueItems: true },
        resource_values: { maxItems: 50 },
      },
      example: examples.createBuyerProductRequest,
    },
    response: { spread: "buyer_product" },
    success: {
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
    document: pageDocument("ListOrders", "orders", ORDER_FIELDS, "OrderFilter"),
    query: [
      ...PAGE_PARAMETERS,
      ...ORDER_FILTERS.restParameters({ created_at_from: {}, created_at_to: {}, order_status: {} }),
    ],
    success: { description: "A page of orders, newest first.", example: [examples.order] },
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
      updateOrder(id: $id, input: $input) { ${ORDER_FIELDS} } }`,
    pathParameters: {
      id: { example: examples.EXAMPLE_IDS.ORDER_ID },
    },
    body: {
      fields: {
        purchase_order_reference: { acceptsNull: true },
        supplier_order_reference: { acceptsNull: true },
        resource_values: { maxItems: 50 },
      },
      example: examples.updateOrderRequest,
    },
    success: { description: "The order, updated.", example: examples.updatedOrder },
    summary: "Update an order",
    tag: "Orders",
    description: `Changes one of your organisation's orders; every change is recorded as an order event. Absent fields are left as they are; \`purchase_order_reference\` and \`supplier_order_reference\` may be set to null to clear them; \`resource_values\` replaces the whole list. An empty body changes nothing and returns the order.

The status moves forward only: \`quote_selected\` → \`order_placed\` → \`order_confirmed\` → the logistics stages (\`shipped\`, \`in_transit\`, \`in_port\`, \`in_warehouse\`, in any order among themselves) → \`delivered\`, which is final. It may skip stages. Setting the current status again changes nothing. Moving to \`order_placed\` or later sets \`placed_at\` to now when it is still null.`,
    problems: {
      not_found:
        "The order does not exist or is not your organisation's, or the id is neither its UUID nor its global ID.",
      invalid_transition:
        "The status cannot move as asked (backwards, or out of `delivered`); `allowed_statuses` lists where it can go.",
      precondition_failed:
        "`If-Match` was sent and the order changed since that ETag (or the tag is not one of this order's: another URL's, weak or malformed); nothing was changed.",
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
    document: pageDocument(
      "ListBuyerProductApprovals",
      "buyerProductApprovals",
      APPROVAL_FIELDS,
      "BuyerProductApprovalFilter",
    ),
    query: [
      ...PAGE_PARAMETERS,
      ...APPROVAL_FILTERS.restParameters({
        approval_status: {},
        buyer_product_id: { example: examples.EXAMPLE_IDS.BUYER_PRODUCT_ID },
      }),
    ],
    success: {
      description: "A page of buyer product approvals, newest first.",
      example: [examples.approval],
    },
    summary: "List buyer product approvals",
    tag: "Buyer product approvals",
    description: `Your organisation's buyer product approvals, optionally filtered by status and buyer product. ${PAGINATION}`,
  },
  recordRoute({
    operationId: "getOrder",
    collection: "orders",
    fields: ORDER_FIELDS,
    idExample: examples.EXAMPLE_IDS.ORDER_ID,
    example: examples.order,
    description:
      "One of your organisation's orders, as the list shows it: read it after an `order.updated` event, for instance.",
  }),
  recordRoute({
    operationId: "getBuyerProduct",
    collection: "buyer_products",
    fields: BUYER_PRODUCT_FIELDS,
    idExample: examples.EXAMPLE_IDS.BUYER_PRODUCT_ID,
    example: examples.buyerProduct,
    description: "One of your organisation's buyer products.",
  }),
  recordRoute({
    operationId: "getBuyerProductApproval",
    collection: "buyer_product_approvals",
    fields: APPROVAL_FIELDS,
    idExample: examples.EXAMPLE_IDS.APPROVAL_ID,
    example: examples.approval,
    description: "One of your organisation's buyer product approvals.",
    notFoundName: "approval",
  }),
  {
    operationId: "listEvents",
    method: "GET",
    path: "/events",
    // Events and endpoints change outside the change log (deliveries): never 304 or cached.
    versioned: false,
    document: pageDocument("ListEvents", "events", EVENT_FIELDS, "WebhookEventFilter"),
    query: [
      ...PAGE_PARAMETERS,
      ...EVENT_FILTERS.restParameters({ type: {}, created_at_from: {}, created_at_to: {} }),
    ],
    success: { description: "A page of events, newest first.", example: [examples.event] },
    summary: "List events",
    tag: "Events",
    description: `Your organisation's events of the last 30 days: what changed in its orders, buyer products, approvals, supplier users and taggings, each with the record as the REST API shows it. After downtime, page through until you reach an event you already have. ${PAGINATION}`,
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [{ field: "type[0]", code: "invalid", message: "is not an event type" }],
      },
    },
  },
  {
    operationId: "getEvent",
    method: "GET",
    path: "/events/{id}",
    // Events and endpoints change outside the change log (deliveries): never 304 or cached.
    versioned: false,
    document: `query GetEvent($id: UUID!) { event(id: $id) { ${EVENT_FIELDS} } }`,
    pathParameters: { id: { example: examples.EVENT_ID } },
    success: { description: "The event.", example: examples.event },
    summary: "Get an event",
    tag: "Events",
    description: "One of your organisation's events, as it was delivered.",
    problems: { not_found: "The event does not exist, is not your organisation's, or was pruned." },
  },
  {
    operationId: "redeliverEvent",
    method: "POST",
    path: "/events/{id}/redeliver",
    document: `mutation RedeliverEvent($id: UUID!, $input: RedeliverEventInput) {
      redeliverEvent(id: $id, input: $input) { deliveries { ${DELIVERY_FIELDS} } } }`,
    pathParameters: { id: { to: "id", example: examples.EVENT_ID } },
    body: { example: { endpoint_id: examples.WEBHOOK_ENDPOINT_ID } },
    success: {
      status: 202,
      description: "The deliveries queued, one per endpoint.",
      example: examples.redelivery,
    },
    summary: "Redeliver an event",
    tag: "Events",
    description:
      "Queues the event again, as a new delivery with its own attempts: to `endpoint_id`, or, without it, to every enabled endpoint subscribed to the event's type. The event keeps its id (`webhook-id`), so receivers that drop duplicates drop it too.",
    problems: {
      not_found: "The event or the endpoint does not exist or is not your organisation's.",
      endpoint_disabled: "The endpoint is disabled: enable it (`PATCH` with `status: enabled`) first.",
    },
    problemExamples: {
      endpoint_disabled: {
        detail: "The webhook endpoint is disabled; enable it (status enabled) before redelivering to it",
      },
    },
  },
  {
    operationId: "createWebhookEndpoint",
    method: "POST",
    path: "/webhook_endpoints",
    document: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { secret endpoint { ${WEBHOOK_ENDPOINT_FIELDS} } } }`,
    body: { fields: { url: { format: "uri" } }, example: examples.createWebhookEndpointRequest },
    response: { spread: "endpoint" },
    success: {
      description: "The endpoint, with its signing secret: shown only here.",
      example: examples.createdWebhookEndpoint,
    },
    summary: "Create a webhook endpoint",
    tag: "Webhook endpoints",
    description:
      "Adds a URL that your organisation's events are posted to. `secret` (`whsec_…`) verifies them with the `standardwebhooks` library; it is shown only in this answer. The URL must be `https` and must not resolve to a private, loopback or link-local address.",
    problems: {
      validation_failed:
        "`url` is not https, does not resolve or resolves to a private address; `enabled_events[i]` is not an event type.",
    },
    problemExamples: {
      validation_failed: {
        detail: "",
        errors: [
          {
            field: "url",
            code: "invalid",
            message: "must not point at a private or reserved address (10.0.0.5 is private)",
          },
        ],
      },
    },
  },
  {
    operationId: "listWebhookEndpoints",
    method: "GET",
    path: "/webhook_endpoints",
    // Events and endpoints change outside the change log (deliveries): never 304 or cached.
    versioned: false,
    document: pageDocument("ListWebhookEndpoints", "webhookEndpoints", WEBHOOK_ENDPOINT_FIELDS),
    query: PAGE_PARAMETERS,
    success: {
      description: "A page of webhook endpoints, newest first.",
      example: [examples.webhookEndpoint],
    },
    summary: "List webhook endpoints",
    tag: "Webhook endpoints",
    description: `Your organisation's webhook endpoints, never their secrets. ${PAGINATION}`,
  },
  {
    operationId: "getWebhookEndpoint",
    method: "GET",
    path: "/webhook_endpoints/{id}",
    // Events and endpoints change outside the change log (deliveries): never 304 or cached.
    versioned: false,
    document: `query GetWebhookEndpoint($id: UUID!) { webhookEndpoint(id: $id) { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    pathParameters: {
      id: { example: examples.WEBHOOK_ENDPOINT_ID },
    },
    success: { description: "The webhook endpoint.", example: examples.webhookEndpoint },
    summary: "Get a webhook endpoint",
    tag: "Webhook endpoints",
    description: "One of your organisation's webhook endpoints, with its status.",
    problems: { not_found: "The endpoint does not exist or is not your organisation's." },
  },
  {
    operationId: "updateWebhookEndpoint",
    method: "PATCH",
    path: "/webhook_endpoints/{id}",
    document: `mutation UpdateWebhookEndpoint($id: UUID!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    pathParameters: {
      id: { example: examples.WEBHOOK_ENDPOINT_ID },
    },
    body: {
      fields: { url: { format: "uri" }, description: { acceptsNull: true } },
      example: { enabled_events: ["*"], description: "ERP sync, all events" },
    },
    success: { description: "The webhook endpoint, changed.", example: examples.webhookEndpoint },
    summary: "Update a webhook endpoint",
    tag: "Webhook endpoints",
    description:
      "Changes an endpoint's `url`, `enabled_events`, `description` or `status`: `disabled` stops deliveries; `enabled` starts them again, also for an endpoint disabled for failing.",
    problems: {
      not_found: "The endpoint does not exist or is not your organisation's.",
      validation_failed: "As for the create, or `status` is `failing` (which only deliveries set).",
    },
  },
  {
    operationId: "deleteWebhookEndpoint",
    method: "DELETE",
    path: "/webhook_endpoints/{id}",
    document: "mutation DeleteWebhookEndpoint($id: UUID!) { deleteWebhookEndpoint(id: $id) }",
    pathParameters: {
      id: { example: examples.WEBHOOK_ENDPOINT_ID },
    },
    response: "empty",
    success: { description: "Deleted, with its deliveries." },
    summary: "Delete a webhook endpoint",
    tag: "Webhook endpoints",
    description: "Deletes an endpoint and its deliveries; nothing more is posted to it.",
    problems: { not_found: "The endpoint does not exist or is not your organisation's." },
  },
  {
    operationId: "rotateWebhookEndpointSecret",
    method: "POST",
    path: "/webhook_endpoints/{id}/rotate_secret",
    document: `mutation RotateWebhookEndpointSecret($id: UUID!) {
      rotateWebhookEndpointSecret(id: $id) { secret endpoint { ${WEBHOOK_ENDPOINT_FIELDS} } } }`,
    pathParameters: { id: { to: "id", example: examples.WEBHOOK_ENDPOINT_ID } },
    response: { spread: "endpoint" },
    success: {
      status: 200,
      description: "The endpoint with its new signing secret: shown only here.",
      example: examples.createdWebhookEndpoint,
    },
    summary: "Rotate a webhook endpoint's secret",
    tag: "Webhook endpoints",
    description:
      "Makes a new signing secret. For 24 hours deliveries carry two signatures, one with the new secret and one with the previous, so your receiver can switch to the new one without rejecting anything.",
    problems: { not_found: "The endpoint does not exist or is not your organisation's." },
  },
  {
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/webhook_endpoints/{id}/deliveries",
    // Events and endpoints change outside the change log (deliveries): never 304 or cached.
    versioned: false,
    document: `query ListWebhookDeliveries($id: UUID!, $first: Int, $after: String) {
      webhookDeliveries(endpointId: $id, first: $first, after: $after) {
        edges { node { ${DELIVERY_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
    pathParameters: { id: { example: examples.WEBHOOK_ENDPOINT_ID } },
    query: PAGE_PARAMETERS,
    success: { description: "A page of deliveries, newest first.", example: [examples.delivery] },
    summary: "List an endpoint's deliveries",
    tag: "Webhook endpoints",
    description: `Every delivery to the endpoint with each attempt: the status code, how long it took, the error, and when the next attempt is due. ${PAGINATION}`,
    problems: { not_found: "The endpoint does not exist or is not your organisation's." },
  },
];
