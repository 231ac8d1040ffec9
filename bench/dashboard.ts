// The dashboard scenario: five ad-hoc documents a front-end dashboard sends
// in full (not persisted), with fragments, a nested connection, totalCount,
// node(id:), @include/@skip and variables, in turn. PostGraphile's
// equivalents, over its own schema, are in peers/postgraphile-dashboard.ts.

/**
 * An order's global ID (docs/reference/graphql.md "Global IDs"), spelled out
 * here: importing the schema's module would register its Pothos plugin in
 * this process before the built gateway the bench loads registers it again.
 */
const orderGlobalId = (uuid: string) => Buffer.from(`Order:${uuid}`, "utf8").toString("base64");

const ORDER_ROW = `fragment OrderRow on Order {
  id orderReference orderStatus placedAt priceTotal currency
  supplier { name }
}`;

const APPROVAL_ROW = `fragment ApprovalRow on BuyerProductApproval {
  id reference approvalStatus supplierName
  buyerProduct { rawMaterialName }
}`;

/** A document of the mix and its variables for the n-th request; `orderId` is one of the buyer's orders. */
export interface DashboardRequest {
  name: string;
  query: string;
  variables(n: number, orderId: string): Record<string, unknown>;
}

const STATUSES = ["ORDER_PLACED", "IN_TRANSIT", "DELIVERED"] as const;
const statusOf = (n: number) => STATUSES[Math.floor(n / 5) % STATUSES.length] as string;

export const DASHBOARD_REQUESTS: DashboardRequest[] = [
  {
    name: "OrdersOverview",
    query: `query OrdersOverview($first: Int!, $status: [OrderStatus!]) {
  orders(first: $first, filter: { orderStatus: $status }) {
    totalCount
    nodes { ...OrderRow }
    pageInfo { hasNextPage endCursor }
  }
}
${ORDER_ROW}`,
    variables: (n) => ({ first: 20, status: [statusOf(n)] }),
  },
  {
    name: "ApprovalsWithOrders",
    query: `query ApprovalsWithOrders($first: Int!, $orders: Int!) {
  buyerProductApprovals(first: $first) {
    totalCount
    nodes {
      ...ApprovalRow
      orders(first: $orders) { totalCount nodes { ...OrderRow } }
    }
  }
}
${APPROVAL_ROW}
${ORDER_ROW}`,
    variables: () => ({ first: 10, orders: 5 }),
  },
  {
    name: "OrderDetail",
    query: `query OrderDetail($id: ID!) {
  node(id: $id) {
    id
    ... on Order {
      ...OrderRow
      quantity taxAmount
      deliverySite { siteName address { city } }
      approval { ...ApprovalRow }
    }
  }
}
${ORDER_ROW}
${APPROVAL_ROW}`,
    variables: (_n, orderId) => ({ id: orderGlobalId(orderId) }),
  },
  {
    name: "ProductsPanel",
    query: `query ProductsPanel($first: Int!, $withApprovals: Boolean!) {
  buyerProducts(first: $first) {
    totalCount
    edges {
      cursor
      node {
        id rawMaterialName measurementUnit
        approvals(first: 3) @include(if: $withApprovals) { totalCount nodes { ...ApprovalRow } }
      }
    }
  }
}
${APPROVAL_ROW}`,
    variables: () => ({ first: 20, withApprovals: true }),
  },
  {
    name: "StatusTiles",
    query: `query StatusTiles($compact: Boolean!) {
  placed: orders(first: 5, filter: { orderStatus: [ORDER_PLACED] }) { totalCount nodes { ...OrderRow } }
  inTransit: orders(first: 5, filter: { orderStatus: [IN_TRANSIT] }) {
    totalCount
    nodes { ...OrderRow purchaseOrderReference @skip(if: $compact) }
  }
  delivered: orders(first: 1, filter: { orderStatus: [DELIVERED] }) { totalCount }
}
${ORDER_ROW}`,
    variables: () => ({ compact: false }),
  },
];

/**
 * What two servers' answers to equivalent documents must share: the records
 * (objects with an id: `id` here, `rowId` in PostGraphile's schema) and the
 * `totalCount`s, summed over the answer, and its errors (none).
 */
export function rowsOf(answer: unknown): { records: number; totalCounts: number; errors: number } {
  const tally = { records: 0, totalCounts: 0, errors: 0 };
  const visit = (value: unknown, key: string): void => {
    if (Array.isArray(value)) {
      if (key === "errors") tally.errors += value.length;
      for (const item of value) visit(item, "");
    } else if (typeof value === "object" && value !== null) {
      if ("id" in value || "rowId" in value) tally.records += 1;
      for (const [name, inner] of Object.entries(value)) visit(inner, name);
    } else if (key === "totalCount" && typeof value === "number") {
      tally.totalCounts += value;
    }
  };
  visit(answer, "");
  return tally;
}
