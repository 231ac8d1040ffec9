// The events integrators can subscribe to (docs/reference/webhooks.md, "Events"), and
// their data, kept as JSON text.

declare global {
  interface JSON {
    /** A JSON text placed as is by JSON.stringify (Node.js 21+). */
    rawJSON(text: string): object;
    isRawJSON(value: unknown): boolean;
    /** A reviver is given each primitive's source text (Node.js 21+). */
    parse(
      text: string,
      reviver: (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown,
    ): unknown;
  }
}

export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.updated",
  "buyer_product.created",
  "buyer_product_approval.created",
  "buyer_product_approval.updated",
  "supplier_user.created",
  "tagging.created",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** In `enabled_events`, alone: every type, including types added later. */
export const ALL_EVENTS = "*";

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether an endpoint subscribed to `enabledEvents` receives an event of `type`. */
export function endpointReceives(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes(ALL_EVENTS) || enabledEvents.includes(type);
}

/**
 * JSON text as a value whose numbers keep their digits (each a JSON.rawJSON of
 * its text), so that JSON.stringify writes the text back as it was, amounts
 * past a double's 15 to 17 digits included. Keys keep their order as long as
 * none looks like an array index, which no REST field name does.
 */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === "number" && context.source !== undefined ? JSON.rawJSON(context.source) : value,
  );
}

/** Whether `value` is a JSON number: a JavaScript number or one kept as its text by parseExactJson. */
export function isJsonNumber(value: unknown): boolean {
  return typeof value === "number" || JSON.isRawJSON(value);
}

/**
 * The largest `data` an event carries, in bytes of its JSON text. A larger one
 * (a record with a huge text written outside the API) is stored and sent as
 * `omittedObjectData` instead, so that every event stays deliverable.
 */
export const MAX_EVENT_DATA_BYTES = 256 * 1024;

/**
 * An event's `data` without its record: which record it is, the size of the
 * `data` left out, and the path of the REST read that answers the record
 * (null where the record type has none), to fetch it from.
 */
export function omittedObjectData(record: { id: string; path: string | null; sizeBytes: number }): string {
  return JSON.stringify({
    object_omitted: {
      reason: "too_large",
      size_bytes: record.sizeBytes,
      max_bytes: MAX_EVENT_DATA_BYTES,
      id: record.id,
      url: record.path,
    },
  });
}
