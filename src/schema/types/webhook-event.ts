// The buyer's events feed: each change to a record, as the REST API shows the
// record (docs/reference/webhooks.md).

import { WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { builder } from "../builder.js";
import { buyerRowField } from "../buyer-row-field.js";
import { allOf, isValue } from "../conditions.js";
import { newestFirstConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { readsJson } from "../field-reads.js";
import { dayFilter, listFilters, textValueFilter } from "../list-filters.js";

export const EVENT_TYPES_SCHEMA = { enum: [...WEBHOOK_EVENT_TYPES] };

export const WebhookEventRef = builder.prismaObject("WebhookEvent", {
  description:
    "Something that happened to one of the buyer's records, with the record as the REST API shows it.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The event's id; deliveries send it as `webhook-id`." }),
    type: t.exposeString("type", {
      description: `The event type: ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
      extensions: { jsonSchema: EVENT_TYPES_SCHEMA },
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the change happened." }),
    data: t.field({
      type: "JSON",
      description:
        "`{ object, previous_attributes? }`: the record in its REST shape and, for updates, the previous " +
        "values of the fields that changed. Written as it was delivered: `object` is the REST read's body " +
        "when the event was rendered, keys in the same order, amounts as JSON numbers with every digit.",
      // Stored as JSON text; its numbers stay their text, so the response writes the stored bytes back.
      ...readsJson("data"),
    }),
  }),
});

const WebhookEventConnectionRef = connectionType(
  "WebhookEvent",
  WebhookEventRef,
  "A page of events, newest first.",
);

/** The events' `filter`. */
export const EVENT_FILTERS = listFilters({
  input: {
    name: "WebhookEventFilter",
    description: "Narrows a list of events. Dates are whole UTC days, both ends included.",
  },
  filters: [
    textValueFilter("type", {
      allowed: WEBHOOK_EVENT_TYPES,
      field: {
        name: "type",
        description: "Only events of these types.",
        rest: {
          description: "Repeat it for several: `type[]=order.created&type[]=order.updated`.",
          example: ["order.updated"],
        },
      },
      extensions: { jsonSchema: { items: EVENT_TYPES_SCHEMA } },
      refusal: `is not an event type; use one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
    }),
    dayFilter("createdAt", {
      from: {
        name: "createdAtFrom",
        description: "Only events created on or after this day.",
        rest: { description: "`YYYY-MM-DD`, a whole UTC day.", example: "2025-03-01" },
      },
      to: {
        name: "createdAtTo",
        description: "Only events created on or before this day.",
        rest: {
          description: "`YYYY-MM-DD`, a whole UTC day; not before `created_at_from`.",
          example: "2025-03-31",
        },
      },
    }),
  ],
});

builder.queryField("events", (t) =>
  newestFirstConnection(t, {
    type: WebhookEventConnectionRef,
    description: "The buyer's events, newest first (creation time, then id); kept for 30 days by default.",
    model: "WebhookEvent",
    rows: (prisma) => prisma.webhookEvent,
    args: { filter: t.arg({ type: EVENT_FILTERS.input, description: "Filters." }) },
    narrow: ({ filter }, problems) => allOf(EVENT_FILTERS.filterWhere(filter, problems)),
    listed: { where: (_args, viewer) => isValue("buyerId", viewer.buyerId) },
  }),
);

builder.queryField("event", (t) =>
  buyerRowField(t, {
    model: "WebhookEvent",
    description: "One of the buyer's events; null when there is none with this id (or it was pruned).",
    idDescription: "The event's id.",
    findFirst: (prisma, query) => prisma.webhookEvent.findFirst(query),
  }),
);
