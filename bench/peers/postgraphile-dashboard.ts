// The dashboard scenario's documents (bench/dashboard.ts) in PostGraphile's
// schema, in the same order: the same lists, page sizes, order (newest
// first) and totals. PostGraphile spells a record's id `rowId`, a relation
// `<table>By<Column>`, an equality filter `condition` (one value), and finds
// one order by `orderByRowId`, where the gateway's node(id:) takes a global ID.
import type { DashboardRequest } from "../dashboard.js";

const NEWEST_FIRST = "[CREATED_AT_DESC, PRIMARY_KEY_DESC]";

const ORDER_ROW = `fragment OrderRow on Order {
  rowId orderReference orderStatus placedAt priceTotal currency
  supplierBySupplierId { name }
}`;

const APPROVAL_ROW = `fragment ApprovalRow on BuyerProductApproval {
  rowId reference approvalStatus supplierName
  buyerProductByBuyerProductId { rawMaterialName }
}`;

// PostGraphile names the enum's values as the database spells them.
const STATUSES = ["order_placed", "in_transit", "delivered"] as const;
const statusOf = (n: number) => STATUSES[Math.floor(n / 5) % STATUSES.length] as string;

export const POSTGRAPHILE_DASHBOARD_REQUESTS: DashboardRequest[] = [
  {
    name: "OrdersOverview",
    query: `query OrdersOverview($first: Int!, $status: OrderStatus!) {
  allOrders(first: $first, condition: { orderStatus: $status }, orderBy: ${NEWEST_FIRST}) {
    totalCount
    nodes { ...OrderRow }
    pageInfo { hasNextPage endCursor }
  }
}
${ORDER_ROW}`,
    variables: (n) => ({ first: 20, status: statusOf(n) }),
  },
  {
    name: "ApprovalsWithOrders",
    query: `query ApprovalsWithOrders($first: Int!, $orders: Int!) {
  allBuyerProductApprovals(first: $first, orderBy: ${NEWEST_FIRST}) {
    totalCount
    nodes {
      ...ApprovalRow
      ordersByBuyerProductApprovalId(first: $orders, orderBy: ${NEWEST_FIRST}) { totalCount nodes { ...OrderRow } }
    }
  }
}
${APPROVAL_ROW}
${ORDER_ROW}`,
    variables: () => ({ first: 10, orders: 5 }),
  },
  {
    name: "OrderDetail",
    query: `query OrderDetail($id: UUID!) {
  orderByRowId(rowId: $id) {
    ...OrderRow
    quantity taxAmount
    deliverySiteByDeliverySiteId { siteName addressCity }
    buyerProductApprovalByBuyerProductApprovalId { ...ApprovalRow }
  }
}
${ORDER_ROW}
${APPROVAL_ROW}`,
    variables: (_n, orderId) => ({ id: orderId }),
  },
  {
    name: "ProductsPanel",
    query: `query ProductsPanel($first: Int!, $withApprovals: Boolean!) {
  allBuyerProducts(first: $first, orderBy: ${NEWEST_FIRST}) {
    totalCount
    edges {
      cursor
      node {
        rowId rawMaterialName measurementUnit
        buyerProductApprovalsByBuyerProductId(first: 3, orderBy: ${NEWEST_FIRST}) @include(if: $withApprovals) {
          totalCount
          nodes { ...ApprovalRow }
        }
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
  placed: allOrders(first: 5, condition: { orderStatus: order_placed }, orderBy: ${NEWEST_FIRST}) {
    totalCount
    nodes { ...OrderRow }
  }
  inTransit: allOrders(first: 5, condition: { orderStatus: in_transit }, orderBy: ${NEWEST_FIRST}) {
    totalCount
    nodes { ...OrderRow purchaseOrderReference @skip(if: $compact) }
  }
  delivered: allOrders(first: 1, condition: { orderStatus: delivered }, orderBy: ${NEWEST_FIRST}) { totalCount }
}
${ORDER_ROW}`,
    variables: () => ({ compact: false }),
  },
];
