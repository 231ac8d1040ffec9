/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Where an order is. Stages move forward only: QUOTE_SELECTED, ORDER_PLACED, ORDER_CONFIRMED, then the logistics stages (SHIPPED, IN_TRANSIT, IN_PORT, IN_WAREHOUSE in any order), then DELIVERED. */
export type OrderStatus =
  /** `delivered` in the REST API. */
  | 'DELIVERED'
  /** `in_port` in the REST API. */
  | 'IN_PORT'
  /** `in_transit` in the REST API. */
  | 'IN_TRANSIT'
  /** `in_warehouse` in the REST API. */
  | 'IN_WAREHOUSE'
  /** `order_confirmed` in the REST API. */
  | 'ORDER_CONFIRMED'
  /** `order_placed` in the REST API. */
  | 'ORDER_PLACED'
  /** `quote_selected` in the REST API. */
  | 'QUOTE_SELECTED'
  /** `shipped` in the REST API. */
  | 'SHIPPED';

export type OrdersTableQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type OrdersTableQuery = { orders: { totalCount: number, edges: Array<{ node: { id: string, orderReference: string | null, orderStatus: OrderStatus, priceTotal: string, currency: string, placedAt: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };


export const OrdersTableDocument = {"__meta__":{"hash":"sha256:8bb2989b142a8bbe8e8302c81f4ef66e2002e29fb392a0caf89727d863d7719d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrdersTable"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderReference"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"priceTotal"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"placedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<OrdersTableQuery, OrdersTableQueryVariables>;