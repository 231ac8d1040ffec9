// What the REST reference says where the GraphQL schema's description of a
// field, argument or type speaks GraphQL (its connection arguments, enum
// names, error codes, camelCase names). Keyed by schema coordinate:
// `Type`, `Type.field`, `Type.field(argument:)`. The OpenAPI generator uses
// these instead of the schema's text; test/openapi/rest-words.test.ts fails on
// any GraphQL word left in the document.

const PAGE_SIZE = "Page size, 1 to 500; 100 when omitted.";
const PAGE_START = "Where the page starts: after the last item of the previous page.";

export const REST_DESCRIPTIONS: Record<string, string> = {
  "Query.orders(first:)": PAGE_SIZE,
  "Query.orders(after:)": PAGE_START,
  "Query.buyerProductApprovals(first:)": PAGE_SIZE,
  "Query.buyerProductApprovals(after:)": PAGE_START,
  UpdateOrderInput: "Changes to an order; an absent field is left as it is.",
  "UpdateOrderInput.orderStatus":
    "The new status; it may only move forward, as the operation's description says.",
  "RedeliverEventInput.endpointId":
    "One endpoint (409 `endpoint_disabled` when it is disabled); absent: every enabled endpoint subscribed to the event's type.",
  "BuyerProduct.autoMatch":
    "How it was matched to the catalogue when it was created, as `POST /buyer_products` answered then. Null for products created before the outcome was stored, and for products imported with their catalogue product.",
  "UpdateWebhookEndpointInput.status":
    "`enabled` (also to re-enable a failing or disabled endpoint) or `disabled`; `failing` is set by deliveries only.",
};

/** The REST text for a schema coordinate, else the schema's own description. */
export function restDescription(
  coordinate: string,
  schemaDescription: string | null | undefined,
): string | null {
  return REST_DESCRIPTIONS[coordinate] ?? schemaDescription ?? null;
}
