// The buyer's events feed: each change to a record, as the REST API shows the
// record (docs/reference/webhooks.md).

import type { FieldProblem } from "../../domain/errors.js";
import { parseExactJson, WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { builder } from "../builder.js";
import { buyerRowField } from "../buyer-row-field.js";
import { newestFirstConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { dayFilter } from "../day-range.js";

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
      resolve: (event) => parseExactJson(event.data),
    }),
  }),
});

const WebhookEventConnectionRef = connectionType(
  "WebhookEvent",
  WebhookEventRef,
  "A page of events, newest first.",
);

const EventFilterInput = builder.inputType("WebhookEventFilter", {
  description: "Narrows a list of events. Dates are whole UTC days, both ends included.",
  fields: (t) => ({
    type: t.stringList({
      description: "Only events of these types.",
      extensions: { jsonSchema: { items: EVENT_TYPES_SCHEMA } },
    }),
    createdAtFrom: t.field({ type: "Date", description: "Only events created on or after this day." }),
    createdAtTo: t.field({ type: "Date", description: "Only events created on or before this day." }),
  }),
});

type EventFilter = typeof EventFilterInput.$inferInput;

/** The events `filter` keeps: bad event types and days go into `problems`. */
function eventsWhere(filter: EventFilter | null | undefined, problems: FieldProblem[]) {
  const types = filter?.type ?? null;
  for (const [index, type] of (types ?? []).entries()) {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
      problems.push({
        path: ["filter", "type", index],
        code: "invalid",
        message: `is not an event type; use one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
      });
    }
  }
  const created = dayFilter(
    "createdAt",
    filter?.createdAtFrom,
    filter?.createdAtTo,
    "createdAtFrom",
    problems,
  );
  return { ...(types?.length ? { type: { in: types } } : {}), ...created };
}

builder.queryField("events", (t) =>
  newestFirstConnection(t, {
    type: WebhookEventConnectionRef,
    description: "The buyer's events, newest first (creation time, then id); kept for 30 days by default.",
    rows: (prisma) => prisma.webhookEvent,
    args: { filter: t.arg({ type: EventFilterInput, description: "Filters." }) },
    narrow: ({ filter }, problems) => eventsWhere(filter, problems),
    where: (_args, viewer) => ({ buyerId: viewer.buyerId }),
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
