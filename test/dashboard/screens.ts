// The buyer dashboard's screens as a front-end team writes them, typed by
// graphql-codegen's client preset (`npm run graphql:types`).
import { graphql } from "../generated/dashboard/gql.js";

export const OrdersTable = graphql(`
  query OrdersTable($first: Int) {
    orders(first: $first) {
      totalCount
      edges { node { id orderReference orderStatus priceTotal currency placedAt } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
