// Deliveries of events to the buyer's endpoints, with their attempts (docs/reference/webhooks.md).
import { notFound } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { allOf, hasId, isValue, ordered } from "../conditions.js";
import { newestFirstConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { contractEnum } from "../enums.js";
import { orNull } from "../field-options.js";
import { readsComputed, readsPath } from "../field-reads.js";
import { EVENT_TYPES_SCHEMA } from "./webhook-event.js";

const WebhookDeliveryStatusEnum = contractEnum(
  "WebhookDeliveryStatus",
  ["pending", "delivering", "succeeded", "failed", "cancelled"] as const,
  "PENDING waits for its next attempt; DELIVERING is being attempted; SUCCEEDED got a 2xx; FAILED ran out " +
    "of retries; CANCELLED was not attempted because its endpoint was disabled.",
);

builder.prismaObject("WebhookDeliveryAttempt", {
  description: "One HTTP attempt of a delivery.",
  fields: (t) => ({
    attempt: t.exposeInt("attempt", { description: "1 for the first attempt, 2 for the first retry, …" }),
    statusCode: t.exposeInt("statusCode", orNull("The receiver's HTTP status; null when it did not answer.")),
    durationMs: t.exposeInt("durationMs", { description: "How long the attempt took, in milliseconds." }),
    error: t.exposeString(
      "error",
      orNull("Why it failed (a non-2xx status, a timeout, a refused address); null on success."),
    ),
    nextRetryAt: t.expose("nextRetryAt", {
      type: "DateTime",
      ...orNull("When the next attempt is due; null when none follows."),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the attempt was made." }),
  }),
});

const eventTypeRead = readsPath("event", "type");

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event sent to one endpoint, with every attempt so far.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The delivery's id." }),
    endpointId: t.expose("endpointId", { type: "UUID", description: "The endpoint." }),
    eventId: t.expose("eventId", { type: "UUID", description: "The event delivered." }),
    eventType: t.string({
      description: "The event's type.",
      ...eventTypeRead,
      extensions: { ...eventTypeRead.extensions, jsonSchema: EVENT_TYPES_SCHEMA },
    }),
    status: t.expose("status", {
      type: WebhookDeliveryStatusEnum,
      description: "Where the delivery stands.",
    }),
    attemptCount: t.exposeInt("attempts", { description: "Attempts made so far." }),
    nextAttemptAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the next attempt is due, while the delivery is pending.",
      ...readsComputed([["availableAt"], ["status"]], (availableAt: Date, status: string) =>
        status === "pending" ? availableAt : null,
      ),
    }),
    succeededAt: t.expose("succeededAt", { type: "DateTime", ...orNull("When a 2xx was received.") }),
    attempts: t.relation("tries", {
      description: "Every attempt, first to last.",
      query: { orderBy: ordered(["attempt", "asc"]) },
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was queued." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed." }),
  }),
});

const WebhookDeliveryConnectionRef = connectionType(
  "WebhookDelivery",
  WebhookDeliveryRef,
  "A page of deliveries, newest first.",
);

builder.queryField("webhookDeliveries", (t) =>
  newestFirstConnection(t, {
    type: WebhookDeliveryConnectionRef,
    description:
      "The deliveries to one of the buyer's endpoints, newest first, each with its attempts. NOT_FOUND when " +
      "the endpoint is not the buyer's.",
    model: "WebhookDelivery",
    rows: (prisma) => prisma.webhookDelivery,
    args: { endpointId: t.arg({ type: "UUID", required: true, description: "The endpoint." }) },
    listed: {
      where: ({ endpointId }) => isValue("endpointId", endpointId),
      // Another buyer's endpoint does not exist for this one.
      owner: {
        model: "WebhookEndpoint",
        where: ({ endpointId }, viewer) => allOf([hasId(endpointId), isValue("buyerId", viewer.buyerId)]),
        missing: () => notFound("Webhook endpoint"),
      },
    },
  }),
);
