// The v1 contract, one entry per endpoint: each runs one GraphQL operation
// whose aliases already spell the contract's field names.

export const API_PREFIX = "/api/public/buyer/v1";

export type HttpMethod = "GET" | "POST" | "PATCH";

export interface RouteInput {
  /** Path parameters, already checked to be UUIDs. */
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface RestRoute {
  operationId: string;
  summary: string;
  method: HttpMethod;
  /** Relative to API_PREFIX; `{name}` segments are UUID path parameters. */
  path: string;
  /** One GraphQL operation; parsed and validated against the schema at startup. */
  document: string;
  /** Variables in the contract's spelling; the adapter converts them to GraphQL's using the variable types. */
  variables(input: RouteInput): Record<string, unknown>;
  /** How a GraphQL argument path is named in REST errors (`first` → `limit`); input objects take no prefix. */
  argumentNames: Record<string, string>;
  successStatus: number;
  /** The contract's response body from the operation's data. */
  body(data: Record<string, unknown>): unknown;
  /** For lists: the cursor of the next page, or null when this is the last. */
  nextCursor?(data: Record<string, unknown>): string | null;
}

const ORDER_FIELDS = `
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

const APPROVAL_FIELDS = `
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

const BUYER_PRODUCT_FIELDS = `
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

const SUPPLIER_USER_FIELDS = `
  id
  first_name: firstName
  last_name: lastName
  contact_email: contactEmail
  supplier_profile_id: supplierProfileId
  created_at: createdAt
  updated_at: updatedAt`;

/** `order_status[]=a&order_status[]=b`, `order_status=a` and `order_status=a,b` all mean the same. */
export function listParameter(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(`${name}[]`), ...query.getAll(name)]
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return values.length > 0 ? values : undefined;
}

/** A whole number stays a number; anything else goes on as text so that coercion reports it. */
function integerParameter(query: URLSearchParams, name: string): number | string | null {
  const raw = query.get(name);
  if (raw === null) return null;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
}

const PAGE_ARGUMENT_NAMES = { first: "limit", after: "cursor", filter: "", input: "" };

type Data = Record<string, unknown>;
type Connection = {
  edges: { node: unknown }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
};

const nodes = (connection: unknown) => (connection as Connection).edges.map((edge) => edge.node);
const nextCursor = (connection: unknown) => {
  const { pageInfo } = connection as Connection;
  return pageInfo.hasNextPage ? pageInfo.endCursor : null;
};

export const routes: RestRoute[] = [
  {
    operationId: "createSupplierUser",
    summary: "Create a supplier user",
    method: "POST",
    path: "/suppliers/{supplier_id}/users",
    document: `mutation CreateSupplierUser($input: CreateSupplierUserInput!) {
      result: createSupplierUser(input: $input) { ${SUPPLIER_USER_FIELDS} }
    }`,
    variables: ({ params, body }) => ({ input: { ...body, supplier_id: params.supplier_id } }),
    argumentNames: { input: "" },
    successStatus: 201,
    body: (data: Data) => data.result,
  },
  {
    operationId: "attachTags",
    summary: "Attach tags to a record",
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
    variables: ({ body }) => ({ input: body }),
    argumentNames: { input: "" },
    successStatus: 201,
    body: (data: Data) => data.result,
  },
  {
    operationId: "createBuyerProduct",
    summary: "Create a buyer product (with auto-match)",
    method: "POST",
    path: "/buyer_products",
    document: `mutation CreateBuyerProduct($input: CreateBuyerProductInput!) {
      result: createBuyerProduct(input: $input) {
        buyerProduct { ${BUYER_PRODUCT_FIELDS} }
        auto_match: autoMatch { matched strategy score }
      }
    }`,
    variables: ({ body }) => ({ input: body }),
    argumentNames: { input: "" },
    successStatus: 201,
    body: (data: Data) => {
      const result = data.result as { buyerProduct: Data; auto_match: Data };
      return { ...result.buyerProduct, auto_match: result.auto_match };
    },
  },
  {
    operationId: "listOrders",
    summary: "List orders",
    method: "GET",
    path: "/orders",
    document: `query ListOrders($first: Int, $after: String, $filter: OrderFilter) {
      orders(first: $first, after: $after, filter: $filter) {
        edges { node { ${ORDER_FIELDS} } }
        pageInfo { hasNextPage endCursor }
      }
    }`,
    variables: ({ query }) => ({
      first: integerParameter(query, "limit"),
      after: query.get("cursor"),
      filter: {
        created_at_from: query.get("created_at_from"),
        created_at_to: query.get("created_at_to"),
        order_status: listParameter(query, "order_status"),
      },
    }),
    argumentNames: PAGE_ARGUMENT_NAMES,
    successStatus: 200,
    body: (data: Data) => nodes(data.orders),
    nextCursor: (data: Data) => nextCursor(data.orders),
  },
  {
    operationId: "updateOrder",
    summary: "Update an order",
    method: "PATCH",
    path: "/orders/{id}",
    document: `mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {
      result: updateOrder(id: $id, input: $input) { ${ORDER_FIELDS} }
    }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    argumentNames: { input: "", id: "id" },
    successStatus: 200,
    body: (data: Data) => data.result,
  },
  {
    operationId: "listBuyerProductApprovals",
    summary: "List buyer product approvals",
    method: "GET",
    path: "/buyer_product_approvals",
    document: `query ListBuyerProductApprovals($first: Int, $after: String, $filter: BuyerProductApprovalFilter) {
      buyerProductApprovals(first: $first, after: $after, filter: $filter) {
        edges { node { ${APPROVAL_FIELDS} } }
        pageInfo { hasNextPage endCursor }
      }
    }`,
    variables: ({ query }) => ({
      first: integerParameter(query, "limit"),
      after: query.get("cursor"),
      filter: {
        approval_status: listParameter(query, "approval_status"),
        buyer_product_id: query.get("buyer_product_id"),
      },
    }),
    argumentNames: PAGE_ARGUMENT_NAMES,
    successStatus: 200,
    body: (data: Data) => nodes(data.buyerProductApprovals),
    nextCursor: (data: Data) => nextCursor(data.buyerProductApprovals),
  },
];
