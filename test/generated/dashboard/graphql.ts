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

/** What is wrong with one input field (VALIDATION_FAILED); `code` in REST's `errors[]`. */
export type FieldErrorCode =
  /** A list item that is listed before. */
  | 'DUPLICATE'
  /** Not a value the field takes (format, null, or a global ID of another type). */
  | 'INVALID'
  /** An id of no record of the buyer. */
  | 'NOT_FOUND'
  /** A number outside the range the field takes. */
  | 'OUT_OF_RANGE'
  /** Missing or blank. */
  | 'REQUIRED'
  /** Longer than the field takes. */
  | 'TOO_LONG'
  /** A list with more items than the field takes. */
  | 'TOO_MANY';

/** How a list of Order items can be sorted. Each key's description says its order when `reverse` is false; the id breaks ties, in the same direction. */
export type OrderSortKeys =
  /** Creation time, newest first. */
  | 'CREATED_AT'
  /** Id, ascending: an order that never changes, whatever is edited. */
  | 'ID'
  /** The service's order reference, ascending; orders without one come last. */
  | 'ORDER_REFERENCE'
  /** Time placed, newest first; orders not placed yet come before every placed order. */
  | 'PLACED_AT'
  /** Total price, highest first (amounts compared as numbers, whatever the currency). */
  | 'PRICE_TOTAL'
  /** The buyer's purchase order reference, ascending; orders without one come last. */
  | 'PURCHASE_ORDER_REFERENCE'
  /** Time of the last change, most recently changed first. */
  | 'UPDATED_AT';

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

/** Why a mutation refused the request; the same code a top-level error carries in `extensions.code`. */
export type UserErrorCode =
  /** A record with the value of `field` already exists. */
  | 'ALREADY_EXISTS'
  /** The order may not move to that status: see `allowedStatuses`. */
  | 'INVALID_TRANSITION'
  /** The record `field` names is not one of the buyer's. */
  | 'NOT_FOUND'
  /** An input field is wrong: see `field` and `fieldCode`. */
  | 'VALIDATION_FAILED';

export type OrdersTableQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  sortKey?: OrderSortKeys;
  reverse?: boolean;
  query?: string | null | undefined;
}>;


export type OrdersTableQuery = { orders: { totalCount: number, nodes: Array<{ id: string, orderReference: string | null, orderStatus: OrderStatus, priceTotal: string, currency: string, placedAt: string | null, supplier: { name: string } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type OrderDetailQueryVariables = Exact<{
  id: string;
}>;


export type OrderDetailQuery = { order: { id: string, orderReference: string | null, orderStatus: OrderStatus, allowedNextStatuses: Array<OrderStatus>, purchaseOrderReference: string | null, priceTotal: string, quantity: string, currency: string, supplier: { name: string }, buyerProduct: { rawMaterialName: string | null }, events: { edges: Array<{ node: { createdAt: string, changes: Array<{ field: string, from: unknown, to: unknown }> } }> } } | null };

export type UpdateOrderMutationVariables = Exact<{
  id: string;
  input: UpdateOrderInput;
}>;


export type UpdateOrderMutation = { orderUpdate: { order: { id: string, orderStatus: OrderStatus, allowedNextStatuses: Array<OrderStatus>, purchaseOrderReference: string | null, updatedAt: string } | null, userErrors: Array<{ code: UserErrorCode, field: Array<string> | null, fieldCode: FieldErrorCode | null, message: string, allowedStatuses: Array<OrderStatus> | null }> } };

export type ProductsWithApprovalsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type ProductsWithApprovalsQuery = { buyerProducts: { totalCount: number, edges: Array<{ node: { id: string, rawMaterialName: string | null, autoMatch: { strategy: string } | null, approvalCounts: { approved: number, pending: number, total: number }, approvals: { totalCount: number, nodes: Array<{ id: string, approvalStatus: ApprovalStatus, supplierName: string | null }> } } }> } };

export type OrderUpdatesSubscriptionVariables = Exact<{
  orderId?: string | null | undefined;
}>;


export type OrderUpdatesSubscription = { orderUpdated: { order: { id: string, orderStatus: OrderStatus, purchaseOrderReference: string | null }, event: { changes: Array<{ field: string, from: unknown, to: unknown }> } } };


export const OrdersTableDocument = {"__meta__":{"hash":"sha256:d37575ce06176228c8f76fa25775c96189cc1a24258a8e28b10fe933aa3eeab2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrdersTable"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sortKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrderSortKeys"}}},"defaultValue":{"kind":"EnumValue","value":"CREATED_AT"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reverse"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},"defaultValue":{"kind":"BooleanValue","value":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"sortKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sortKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"reverse"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reverse"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderReference"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"priceTotal"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"placedAt"}},{"kind":"Field","name":{"kind":"Name","value":"supplier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<OrdersTableQuery, OrdersTableQueryVariables>;
export const OrderDetailDocument = {"__meta__":{"hash":"sha256:fb93f9651e98dc9d0277257ef5e9fc22b6537c66890b14bfb8994409f757b651"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrderDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderReference"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"allowedNextStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}},{"kind":"Field","name":{"kind":"Name","value":"priceTotal"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"supplier"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"buyerProduct"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rawMaterialName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrderDetailQuery, OrderDetailQueryVariables>;
export const UpdateOrderDocument = {"__meta__":{"hash":"sha256:e2a9d0fd962f66b0018dd36e2adb48ded35155a752ad4e064a36e292ad3d4578"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"allowedNextStatuses"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"fieldCode"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"allowedStatuses"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateOrderMutation, UpdateOrderMutationVariables>;
export const ProductsWithApprovalsDocument = {"__meta__":{"hash":"sha256:a6f9e3bdd51e6628842b9f176ea26bc8f6a060d9819ff92dfaba3648ae537457"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProductsWithApprovals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"buyerProducts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"rawMaterialName"}},{"kind":"Field","name":{"kind":"Name","value":"autoMatch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"strategy"}}]}},{"kind":"Field","name":{"kind":"Name","value":"approvalCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"approved"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","name":{"kind":"Name","value":"approvals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"approvalStatus"}},{"kind":"Field","name":{"kind":"Name","value":"supplierName"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProductsWithApprovalsQuery, ProductsWithApprovalsQueryVariables>;
export const OrderUpdatesDocument = {"__meta__":{"hash":"sha256:b0468716e5790d65e1a268a778c2932a77b3c17e94056be372a90e533861056e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"OrderUpdates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UUID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"orderId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"orderStatus"}},{"kind":"Field","name":{"kind":"Name","value":"purchaseOrderReference"}}]}},{"kind":"Field","name":{"kind":"Name","value":"event"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrderUpdatesSubscription, OrderUpdatesSubscriptionVariables>;