// The buyer dashboard's screens as a front-end team writes them, typed by
// graphql-codegen's client preset (`npm run graphql:types`).
import { graphql } from "../generated/dashboard/gql.js";

/** Orders table: a page in the column order the user clicked, searched, paged either way. */
export const OrdersTable = graphql(`
  query OrdersTable(
    $first: Int, $after: String, $last: Int, $before: String
    $sortKey: OrderSortKeys! = CREATED_AT, $reverse: Boolean! = false, $query: String
  ) {
    orders(first: $first, after: $after, last: $last, before: $before, sortKey: $sortKey, reverse: $reverse, query: $query) {
      totalCount
      nodes { id orderReference orderStatus priceTotal currency placedAt supplier { name } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

/** Order detail: the order, what it links to, and its history. */
export const OrderDetail = graphql(`
  query OrderDetail($id: UUID!) {
    order(id: $id) {
      id orderReference orderStatus allowedNextStatuses purchaseOrderReference priceTotal quantity currency
      supplier { name }
      buyerProduct { rawMaterialName }
      events(first: 10) { edges { node { createdAt changes { field from to } } } }
    }
  }
`);

/** Order detail's action: move the order on and set the buyer's PO reference; refusals come typed. */
export const UpdateOrder = graphql(`
  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {
    orderUpdate(id: $id, input: $input) {
      order { id orderStatus allowedNextStatuses purchaseOrderReference updatedAt }
      userErrors { code field fieldCode message allowedStatuses }
    }
  }
`);

/** Products with their approvals. */
export const ProductsWithApprovals = graphql(`
  query ProductsWithApprovals($first: Int) {
    buyerProducts(first: $first) {
      totalCount
      edges {
        node {
          id rawMaterialName autoMatch { strategy }
          approvalCounts { approved pending total }
          approvals(first: 5) { totalCount nodes { id approvalStatus supplierName } }
        }
      }
    }
  }
`);

/** Live updates of the buyer's orders. */
export const OrderUpdates = graphql(`
  subscription OrderUpdates($orderId: UUID) {
    orderUpdated(orderId: $orderId) {
      order { id orderStatus purchaseOrderReference }
      event { changes { field from to } }
    }
  }
`);
