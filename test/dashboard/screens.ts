// The buyer dashboard's screens as a front-end team writes them, typed by
// graphql-codegen's client preset (`npm run graphql:types`).
import { graphql } from "../generated/dashboard/gql.js";

/** Orders table: one page, its total and the cursor to the next. */
export const OrdersTable = graphql(`
  query OrdersTable($first: Int, $after: String) {
    orders(first: $first, after: $after) {
      totalCount
      edges { node { id orderReference orderStatus priceTotal currency placedAt supplier { name } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** Order detail: the order, what it links to, and its history. */
export const OrderDetail = graphql(`
  query OrderDetail($id: UUID!) {
    order(id: $id) {
      id orderReference orderStatus purchaseOrderReference priceTotal quantity currency
      supplier { name }
      buyerProduct { rawMaterialName }
      events(first: 10) { edges { node { createdAt changes { field from to } } } }
    }
  }
`);

/** Order detail's action: move the order on and set the buyer's PO reference. */
export const UpdateOrder = graphql(`
  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {
    updateOrder(id: $id, input: $input) { id orderStatus purchaseOrderReference updatedAt }
  }
`);

/** Products with their approvals. */
export const ProductsWithApprovals = graphql(`
  query ProductsWithApprovals($first: Int) {
    buyerProducts(first: $first) {
      totalCount
      edges { node { id rawMaterialName approvals(first: 5) { totalCount edges { node { id approvalStatus supplierName } } } } }
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
