import type { JsonValue } from "./route.js";

// Sample bodies for the reference. They are data, not a description of the
// fields: a test validates every one against the schema derived from GraphQL.

const BUYER_PRODUCT_ID = "7d2e4b1a-93c5-4f08-b6a1-2c4d8e9f0a13";
const SUPPLIER_ID = "b8f3c2d1-6e5a-4b9c-8d7e-1f2a3b4c5d6e";
const ORDER_ID = "c41a7e92-5b3d-4f6e-a8c1-9d0e2f4a6b83";
const APPROVAL_ID = "e5b9d3c7-1a2f-4e8b-9c6d-3f7a1b5e9d20";
const TAG_IDS = ["1a6f0c2e-8d4b-4b7a-9e3c-5d2f7a9b1c04", "2b7e1d3f-9c5a-4d8b-8f4e-6e3a8b0c2d15"];

export const EXAMPLE_IDS = { BUYER_PRODUCT_ID, SUPPLIER_ID, ORDER_ID, APPROVAL_ID };

export const createSupplierUserRequest: Record<string, JsonValue> = {
  first_name: "Ada",
  last_name: "Lovelace",
  contact_email: "ada.lovelace@lumen-chemicals.example",
};

export const supplierUser: JsonValue = {
  id: "3f1c2b9e-8a4d-4c1e-9b7a-2d5e6f708192",
  ...createSupplierUserRequest,
  supplier_profile_id: SUPPLIER_ID,
  created_at: "2025-03-04T09:30:12.345Z",
  updated_at: "2025-03-04T09:30:12.345Z",
};

export const attachTagsRequest: JsonValue = { taggable_id: BUYER_PRODUCT_ID, tag_ids: TAG_IDS };

export const taggingResult: JsonValue = {
  taggable_type: "BuyerProduct",
  taggable_id: BUYER_PRODUCT_ID,
  added_tag_ids: [TAG_IDS[1] ?? ""],
  tags: [
    {
      id: TAG_IDS[0] ?? "",
      name: "COSMOS certified",
      category: "compliance",
      tag_group: { id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", name: "Certifications" },
    },
    {
      id: TAG_IDS[1] ?? "",
      name: "Vegan",
      category: "compliance",
      tag_group: { id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", name: "Certifications" },
    },
  ],
};

export const createBuyerProductRequest: Record<string, JsonValue> = {
  raw_material_name: "Glycerine USP 99.5%",
  measurement_unit: "kg",
  product_type: "Raw Material",
  raw_material_code: "56-81-5",
  annual_usage: 12000,
  typical_order_size: 1000,
  frequency: "monthly",
  container_type: "IBC",
  target_approvals: 2,
  priority_product: true,
  document_types: ["sds", "tds", "batch_coa"],
  resource_values: [{ provider: "sap", value: "0f4e2a1c-7b3d-4e5f-9a8b-6c5d4e3f2a1b" }],
};

export const createdBuyerProduct: JsonValue = {
  id: BUYER_PRODUCT_ID,
  ...createBuyerProductRequest,
  active: true,
  created_at: "2025-03-04T09:31:00.120Z",
  updated_at: "2025-03-04T09:31:00.120Z",
  product_id: "4a3b2c1d-0e9f-4a8b-b7c6-d5e4f3a2b1c0",
  auto_match: { matched: true, strategy: "cas_number", score: 1 },
};

export const buyerProduct: JsonValue = {
  id: BUYER_PRODUCT_ID,
  ...createBuyerProductRequest,
  active: true,
  created_at: "2025-03-04T09:31:00.120Z",
  updated_at: "2025-03-04T09:31:00.120Z",
  product_id: "4a3b2c1d-0e9f-4a8b-b7c6-d5e4f3a2b1c0",
};

export const order: Record<string, JsonValue> = {
  id: ORDER_ID,
  url: `https://app.example.com/orders/${ORDER_ID}`,
  supplier_profile_id: SUPPLIER_ID,
  buyer_product_approval_id: APPROVAL_ID,
  price_type: "indent",
  quantity: 4,
  price_per_uom: 2.85,
  tax_amount: 456,
  tax_percentage: 10,
  price_total: 5016,
  currency: "AUD",
  profile_connection_relationship: "approved_supplier",
  order_reference: "ORD-2025-000142",
  order_status: "order_confirmed",
  purchase_order_reference: "PO-88412",
  supplier_order_reference: null,
  order_type: { id: "6e5d4c3b-2a1f-4e0d-9c8b-7a6f5e4d3c2b", type_of: "local" },
  resource_values: [{ provider: "sap", value: "4500012345" }],
  tracking_type: null,
  additional_data: {
    product: { buyer_product_display_name: "Glycerine USP 99.5%" },
    supplier: { supplier_name: "Lumen Chemicals" },
  },
  placed_at: "2025-03-02T23:14:05.000Z",
  created_at: "2025-03-01T08:00:00.000Z",
  updated_at: "2025-03-03T10:42:18.531Z",
  delivery_site: {
    id: "8f7e6d5c-4b3a-4291-8e7f-6a5b4c3d2e1f",
    site_name: "Dandenong plant",
    address: {
      street: "1 Factory Road",
      city: "Dandenong",
      state: "VIC",
      postcode: "3175",
      country: "AU",
      full_address: "1 Factory Road, Dandenong VIC 3175, AU",
    },
  },
};

export const updateOrderRequest: JsonValue = {
  order_status: "in_transit",
  supplier_order_reference: "LC-SO-20931",
};

export const updatedOrder: JsonValue = {
  ...order,
  order_status: "in_transit",
  supplier_order_reference: "LC-SO-20931",
  updated_at: "2025-03-05T14:02:44.907Z",
};

export const approval: JsonValue = {
  id: APPROVAL_ID,
  approval_status: "approved",
  supplier_name: "Lumen Chemicals",
  catalogue_parent_display_name: "Glycerin 99.5% Ph. Eur.",
  catalogue_parent_product_code: "LC-GLY-995",
  reference: "APP-000318",
  buyer_product_id: BUYER_PRODUCT_ID,
  supplier_profile_id: SUPPLIER_ID,
  created_at: "2025-02-11T05:20:31.004Z",
  updated_at: "2025-02-18T22:47:09.612Z",
};

export const EVENT_ID = "0b8f6a3e-2c4d-4e1f-9a7b-5c6d7e8f9a0b";
export const WEBHOOK_ENDPOINT_ID = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a";

export const event: JsonValue = {
  id: EVENT_ID,
  type: "order.updated",
  created_at: "2025-03-05T14:02:44.907Z",
  data: {
    object: updatedOrder,
    previous_attributes: {
      order_status: "order_confirmed",
      supplier_order_reference: null,
      updated_at: "2025-03-03T10:42:18.531Z",
    },
  },
};

export const createWebhookEndpointRequest: JsonValue = {
  url: "https://erp.example.com/hooks/buyer-api",
  enabled_events: ["order.created", "order.updated"],
  description: "ERP order sync",
};

export const webhookEndpoint: JsonValue = {
  id: WEBHOOK_ENDPOINT_ID,
  url: "https://erp.example.com/hooks/buyer-api",
  description: "ERP order sync",
  enabled_events: ["order.created", "order.updated"],
  status: "enabled",
  failing_since: null,
  disabled_at: null,
  disabled_reason: null,
  created_at: "2025-03-01T08:00:00.000Z",
  updated_at: "2025-03-01T08:00:00.000Z",
};

export const createdWebhookEndpoint: JsonValue = {
  ...(webhookEndpoint as Record<string, JsonValue>),
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
};

export const delivery: JsonValue = {
  id: "7c6b5a49-3827-4165-a4b3-c2d1e0f9a8b7",
  endpoint_id: WEBHOOK_ENDPOINT_ID,
  event_id: EVENT_ID,
  event_type: "order.updated",
  status: "pending",
  attempt_count: 2,
  next_attempt_at: "2025-03-05T14:33:10.000Z",
  succeeded_at: null,
  attempts: [
    {
      attempt: 1,
      status_code: 503,
      duration_ms: 42,
      error: "HTTP 503",
      next_retry_at: "2025-03-05T14:02:50.000Z",
      created_at: "2025-03-05T14:02:45.101Z",
    },
    {
      attempt: 2,
      status_code: null,
      duration_ms: 10001,
      error: "no answer within 10000 ms",
      next_retry_at: "2025-03-05T14:33:10.000Z",
      created_at: "2025-03-05T14:03:00.433Z",
    },
  ],
  created_at: "2025-03-05T14:02:45.000Z",
  updated_at: "2025-03-05T14:03:10.434Z",
};

export const redelivery: JsonValue = {
  deliveries: [
    {
      ...(delivery as Record<string, JsonValue>),
      status: "pending",
      attempt_count: 0,
      next_attempt_at: "2025-03-06T09:00:00.000Z",
      attempts: [],
    },
  ],
};
