import type { RequestListener } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { QueryObserver } from "../../src/db/readers.js";

/**
 * Peer (d), PostGraphile, is compiled on its own (bench/tsconfig.postgraphile.json):
 * grafast's declarations change graphql-js's `ExecutionResult` for every file
 * compiled beside them, which the gateway's own code does not type-check
 * against. What the rest of the bench needs of it is declared here.
 */
export interface PostGraphilePeer {
  listener: RequestListener;
  close(): Promise<void>;
}

export interface PostGraphilePeerOptions {
  connectionString: string;
  /** Told of every statement the peer's key lookup sends (through Prisma) and PostGraphile sends. */
  onQuery?: QueryObserver;
}

export interface PostGraphilePeerModule {
  createPostGraphileListener(options: PostGraphilePeerOptions): Promise<PostGraphilePeer>;
}

/** The built peer of a checkout (`dist/bench/peers/postgraphile.js`), in PostGraphile's production mode. */
export async function loadPostGraphilePeer(root: string): Promise<PostGraphilePeerModule> {
  // Read when grafast loads; unset, it warns and runs in production mode all the same.
  process.env.GRAPHILE_ENV ??= "production";
  const file = path.join(root, "dist", "bench", "peers", "postgraphile.js");
  const loaded: PostGraphilePeerModule = await import(pathToFileURL(file).href);
  return loaded;
}

/**
 * The page of orders GET /orders?limit=100 answers, as one PostGraphile
 * query: the same fields, newest first. The supplier's relationship is the
 * reading buyer's connection to it; the server narrows every list to the
 * key's buyer, so the document names no buyer.
 */
export const POSTGRAPHILE_ORDERS_DOCUMENT = `query Orders($first: Int!) {
  allOrders(first: $first, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) {
    nodes {
      rowId
      supplierId
      buyerProductApprovalId
      priceType
      quantity
      pricePerUom
      taxAmount
      taxPercentage
      priceTotal
      currency
      orderReference
      orderStatus
      purchaseOrderReference
      supplierOrderReference
      trackingType
      placedAt
      createdAt
      updatedAt
      orderTypeByOrderTypeId { rowId typeOf }
      orderResourceValuesByOrderId { nodes { provider value } }
      buyerProductApprovalByBuyerProductApprovalId { buyerProductByBuyerProductId { rawMaterialName } }
      supplierBySupplierId {
        name
        buyerSupplierConnectionsBySupplierId(first: 1) { nodes { relationship } }
      }
      deliverySiteByDeliverySiteId {
        rowId
        siteName
        addressStreet
        addressCity
        addressState
        addressPostcode
        addressCountry
        addressFullAddress
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
