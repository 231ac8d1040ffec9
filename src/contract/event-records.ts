import { API_PREFIX } from "./route.js";
import { BUYER_PRODUCT_FIELDS, routes, SUPPLIER_USER_FIELDS, TAGGING_FIELDS } from "./routes.js";

// A record in an event, in its REST shape: rendered by the same GraphQL
// operation as the REST single read of its resource (`GET /orders/{id}`, …),
// so that the shape has one definition. Supplier users and taggings have no
// single read; their events show them as `POST /suppliers/{id}/users` and
// `POST /taggings` answer, through render-only operations that no REST path serves.

function routeOf(operationId: string) {
  const route = routes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId} to render events with`);
  return route;
}

const documentOf = (operationId: string): string => routeOf(operationId).document;

/**
 * The operation that renders each record type, as the change log names it.
 * `$id` is the record (for a tagging, the tagged record); a tagging's
 * `$attachedAt` is when its change was made.
 */
export const EVENT_RECORD_DOCUMENTS: Record<string, string> = {
  order: documentOf("getOrder"),
  // GET /buyer_products/{id} and the `auto_match` that POST /buyer_products answered.
  buyer_product: `query RenderCreatedBuyerProduct($id: UUID!) {
    buyerProduct(id: $id) { ${BUYER_PRODUCT_FIELDS} autoMatch { matched strategy score } } }`,
  buyer_product_approval: documentOf("getBuyerProductApproval"),
  supplier_user: `query RenderSupplierUser($id: UUID!) { supplierUser(id: $id) { ${SUPPLIER_USER_FIELDS} } }`,
  tagging: `query RenderTagging($id: UUID!, $attachedAt: DateTime) {
    taggedRecord(taggableId: $id, attachedAt: $attachedAt) {
      ${TAGGING_FIELDS}
    }
  }`,
};

/**
 * The path of the REST read of each record type that has one (`{id}` the
 * record), which an event too large to carry its record names instead
 * (docs/reference/webhooks.md "Event size"). Supplier users and taggings have none.
 */
export const EVENT_RECORD_PATHS: Record<string, string | null> = {
  order: `${API_PREFIX}${routeOf("getOrder").path}`,
  buyer_product: `${API_PREFIX}${routeOf("getBuyerProduct").path}`,
  buyer_product_approval: `${API_PREFIX}${routeOf("getBuyerProductApproval").path}`,
  supplier_user: null,
  tagging: null,
};
