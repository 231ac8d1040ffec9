/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Where the approval of a supplier's material for a buyer product stands. */
export type ApprovalStatus =
  /** `approved` in the REST API. */
  | 'APPROVED'
  /** `inactive` in the REST API. */
  | 'INACTIVE'
  /** `pending` in the REST API. */
  | 'PENDING'
  /** `preferred` in the REST API. */
  | 'PREFERRED'
  /** `purchased` in the REST API. */
  | 'PURCHASED'
  /** `sample_approved` in the REST API. */
  | 'SAMPLE_APPROVED'
  /** `sample_requested` in the REST API. */
  | 'SAMPLE_REQUESTED'
  /** `unapproved` in the REST API. */
  | 'UNAPPROVED'
  /** `unstarted` in the REST API. */
  | 'UNSTARTED';

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

/** An identifier of a record in an external system. */
export type ResourceValueInput = {
  /** Name of the external system; not blank. */
  provider: string;
  /** The identifier in that system; not blank. */
  value: string;
};

/** Changes to an order. An absent field is left as it is; so is a field set to null (in GraphQL), except the two references, where null clears the reference. */
export type UpdateOrderInput = {
  /** The new status; it may only move forward (see OrderStatus and Order.allowedNextStatuses). */
  orderStatus?: OrderStatus | null | undefined;
  /** When the order was placed. */
  placedAt?: string | null | undefined;
  /** The buyer's purchase order reference; trimmed, not blank; null clears it. */
  purchaseOrderReference?: string | null | undefined;
  /** Replaces all of the order's external identifiers (at most 50; [] removes them all). */
  resourceValues?: Array<ResourceValueInput> | null | undefined;
  /** The supplier's order reference; trimmed, not blank; null clears it. */
  supplierOrderReference?: string | null | undefined;
};

export type OrdersTableQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type OrdersTableQuery = { orders: { totalCount: number, edges: Array<{ node: { id: string, orderReference: string | null, orderStatus: OrderStatus, priceTotal: string, currency: string, placedAt: string | null, supplier: { name: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type OrderDetailQueryVariables = Exact<{
  id: string;
}>;


export type OrderDetailQuery = { order: { id: string, orderReference: string | null, orderStatus: OrderStatus, purchaseOrderReference: string | null, priceTotal: string, quantity: string, currency: string, supplier: { name: string }, buyerProduct: { rawMaterialName: string | null }, events: { edges: Array<{ node: { createdAt: string, changes: Array<{ field: string, from: unknown, to: unknown }> } }> } } | null };

export type UpdateOrderMutationVariables = Exact<{
  id: string;
  input: UpdateOrderInput;
}>;


export type UpdateOrderMutation = { updateOrder: { id: string, orderStatus: OrderStatus, purchaseOrderReference: string | null, updatedAt: string } };

export type ProductsWithApprovalsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type ProductsWithApprovalsQuery = { buyerProducts: { totalCount: number, edges: Array<{ node: { id: string, rawMaterialName: string | null, approvals: { totalCount: number, edges: Array<{ node: { id: string, approvalStatus: ApprovalStatus, supplierName: string | null } }> } } }> } };

export type OrderUpdatesSubscriptionVariables = Exact<{
  orderId?: string | null | undefined;
}>;


export type OrderUpdatesSubscription = { orderUpdated: { order: { id: string, orderStatus: OrderStatus, purchaseOrderReference: string | null }, event: { changes: Array<{ field: string, from: unknown, to: unknown }> } } };


export const OrdersTableDocument = {"__meta__":{"hash":"sha256:92435b5d6b661124dd5ab0a6d16535503efdacc3e2c4046c0cd3fc37ca479861"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrdersTable"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderReference"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"priceTotal"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"placedAt"}},{"kind":"Field","name":{"kind":"Name","value":"supplier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<OrdersTableQuery, OrdersTableQueryVariables>;
export const OrderDetailDocument = {"__meta__":{"hash":"sha256:906da3fa72d6d11064eed865ccbb82899f5d6b0d1c75798fdcf2a3137275a222"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrderDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderReference"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}},{"kind":"Field","name":{"kind":"Name","value":"priceTotal"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"supplier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"buyerProduct"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rawMaterialName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrderDetailQuery, OrderDetailQueryVariables>;
export const UpdateOrderDocument = {"__meta__":{"hash":"sha256:2e8f5f5b2c5c4983e8799f2632eb49c5cb0e5bcac7a34e8ac7107bdd069359c2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<UpdateOrderMutation, UpdateOrderMutationVariables>;
export const ProductsWithApprovalsDocument = {"__meta__":{"hash":"sha256:d4661442af40c9126bcc7a5e6246f9cc11464a9d131acf7fcbfdfba00980e786"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProductsWithApprovals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buyerProducts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"rawMaterialName"}},{"kind":"Field","name":{"kind":"Name","value":"approvals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"approvalStatus"}},{"kind":"Field","name":{"kind":"Name","value":"supplierName"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProductsWithApprovalsQuery, ProductsWithApprovalsQueryVariables>;
export const OrderUpdatesDocument = {"__meta__":{"hash":"sha256:b0468716e5790d65e1a268a778c2932a77b3c17e94056be372a90e533861056e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"OrderUpdates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}}]}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrderUpdatesSubscription, OrderUpdatesSubscriptionVariables>;