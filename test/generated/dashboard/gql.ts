/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query OrdersTable($first: Int, $after: String) {\n    orders(first: $first, after: $after) {\n      totalCount\n      edges { node { id orderReference orderStatus priceTotal currency placedAt supplier { name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.OrdersTableDocument,
    "\n  query OrderDetail($id: UUID!) {\n    order(id: $id) {\n      id orderReference orderStatus purchaseOrderReference priceTotal quantity currency\n      supplier { name }\n      buyerProduct { rawMaterialName }\n      events(first: 10) { edges { node { createdAt changes { field from to } } } }\n    }\n  }\n": typeof types.OrderDetailDocument,
    "\n  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {\n    updateOrder(id: $id, input: $input) { id orderStatus purchaseOrderReference updatedAt }\n  }\n": typeof types.UpdateOrderDocument,
    "\n  query ProductsWithApprovals($first: Int) {\n    buyerProducts(first: $first) {\n      totalCount\n      edges { node { id rawMaterialName approvals(first: 5) { totalCount edges { node { id approvalStatus supplierName } } } } }\n    }\n  }\n": typeof types.ProductsWithApprovalsDocument,
    "\n  subscription OrderUpdates($orderId: UUID) {\n    orderUpdated(orderId: $orderId) {\n      order { id orderStatus purchaseOrderReference }\n      event { changes { field from to } }\n    }\n  }\n": typeof types.OrderUpdatesDocument,
};
const documents: Documents = {
    "\n  query OrdersTable($first: Int, $after: String) {\n    orders(first: $first, after: $after) {\n      totalCount\n      edges { node { id orderReference orderStatus priceTotal currency placedAt supplier { name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.OrdersTableDocument,
    "\n  query OrderDetail($id: UUID!) {\n    order(id: $id) {\n      id orderReference orderStatus purchaseOrderReference priceTotal quantity currency\n      supplier { name }\n      buyerProduct { rawMaterialName }\n      events(first: 10) { edges { node { createdAt changes { field from to } } } }\n    }\n  }\n": types.OrderDetailDocument,
    "\n  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {\n    updateOrder(id: $id, input: $input) { id orderStatus purchaseOrderReference updatedAt }\n  }\n": types.UpdateOrderDocument,
    "\n  query ProductsWithApprovals($first: Int) {\n    buyerProducts(first: $first) {\n      totalCount\n      edges { node { id rawMaterialName approvals(first: 5) { totalCount edges { node { id approvalStatus supplierName } } } } }\n    }\n  }\n": types.ProductsWithApprovalsDocument,
    "\n  subscription OrderUpdates($orderId: UUID) {\n    orderUpdated(orderId: $orderId) {\n      order { id orderStatus purchaseOrderReference }\n      event { changes { field from to } }\n    }\n  }\n": types.OrderUpdatesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrdersTable($first: Int, $after: String) {\n    orders(first: $first, after: $after) {\n      totalCount\n      edges { node { id orderReference orderStatus priceTotal currency placedAt supplier { name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query OrdersTable($first: Int, $after: String) {\n    orders(first: $first, after: $after) {\n      totalCount\n      edges { node { id orderReference orderStatus priceTotal currency placedAt supplier { name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrderDetail($id: UUID!) {\n    order(id: $id) {\n      id orderReference orderStatus purchaseOrderReference priceTotal quantity currency\n      supplier { name }\n      buyerProduct { rawMaterialName }\n      events(first: 10) { edges { node { createdAt changes { field from to } } } }\n    }\n  }\n"): (typeof documents)["\n  query OrderDetail($id: UUID!) {\n    order(id: $id) {\n      id orderReference orderStatus purchaseOrderReference priceTotal quantity currency\n      supplier { name }\n      buyerProduct { rawMaterialName }\n      events(first: 10) { edges { node { createdAt changes { field from to } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {\n    updateOrder(id: $id, input: $input) { id orderStatus purchaseOrderReference updatedAt }\n  }\n"): (typeof documents)["\n  mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!) {\n    updateOrder(id: $id, input: $input) { id orderStatus purchaseOrderReference updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProductsWithApprovals($first: Int) {\n    buyerProducts(first: $first) {\n      totalCount\n      edges { node { id rawMaterialName approvals(first: 5) { totalCount edges { node { id approvalStatus supplierName } } } } }\n    }\n  }\n"): (typeof documents)["\n  query ProductsWithApprovals($first: Int) {\n    buyerProducts(first: $first) {\n      totalCount\n      edges { node { id rawMaterialName approvals(first: 5) { totalCount edges { node { id approvalStatus supplierName } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OrderUpdates($orderId: UUID) {\n    orderUpdated(orderId: $orderId) {\n      order { id orderStatus purchaseOrderReference }\n      event { changes { field from to } }\n    }\n  }\n"): (typeof documents)["\n  subscription OrderUpdates($orderId: UUID) {\n    orderUpdated(orderId: $orderId) {\n      order { id orderStatus purchaseOrderReference }\n      event { changes { field from to } }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;