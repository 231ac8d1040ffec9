// Webhook endpoints and the queries that list and read them, for GraphQL
// clients and the REST routes that run these fields (docs/reference/webhooks.md).
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { builder } from "../builder.js";
import { buyerRowField } from "../buyer-row-field.js";
import { isValue } from "../conditions.js";
import { newestFirstConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { contractEnum } from "../enums.js";

export const ENABLED_EVENTS_SCHEMA = { type: "array", items: { enum: ["*", ...WEBHOOK_EVENT_TYPES] } };

export const WebhookEndpointStatusEnum = contractEnum(
  "WebhookEndpointStatus",
  ["enabled", "failing", "disabled"] as const,
  "ENABLED receives deliveries; FAILING still does, but a delivery ran out of retries (it becomes ENABLED " +
    "again on the next success, and DISABLED when it stays failing too long); DISABLED receives none.",
);

export const WebhookEndpointRef = builder.prismaObject("WebhookEndpoint", {
  description: "A URL the buyer's events are posted to, signed under the Standard Webhooks specification.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The endpoint's id." }),
    url: t.exposeString("url", { description: "Where events are posted." }),
    description: t.exposeString("description", { nullable: true, description: "The buyer's note." }),
    enabledEvents: t.exposeStringList("enabledEvents", {
      description: 'The event types posted here, or ["*"] for all.',
      extensions: { jsonSchema: ENABLED_EVENTS_SCHEMA },
    }),
    status: t.expose("status", {
      type: WebhookEndpointStatusEnum,
      description: "Whether it receives events.",
    }),
    failingSince: t.expose("failingSince", {
      type: "DateTime",
      nullable: true,
      description: "When a delivery first ran out of retries, while the endpoint is failing.",
    }),
    disabledAt: t.expose("disabledAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was disabled, while it is.",
    }),
    disabledReason: t.exposeString("disabledReason", {
      nullable: true,
      description: "Why it is disabled: `requested`, or `failing` (it kept failing and was disabled for it).",
      extensions: { jsonSchema: { enum: ["requested", "failing", null] } },
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed." }),
  }),
});

const WebhookEndpointConnectionRef = connectionType(
  "WebhookEndpoint",
  WebhookEndpointRef,
  "A page of webhook endpoints, newest first.",
);

builder.queryField("webhookEndpoints", (t) =>
  newestFirstConnection(t, {
    type: WebhookEndpointConnectionRef,
    description: "The buyer's webhook endpoints, newest first.",
    model: "WebhookEndpoint",
    rows: (prisma) => prisma.webhookEndpoint,
    listed: { where: (_args, viewer) => isValue("buyerId", viewer.buyerId) },
  }),
);

builder.queryField("webhookEndpoint", (t) =>
  buyerRowField(t, {
    model: "WebhookEndpoint",
    description: "One of the buyer's webhook endpoints; null when there is none with this id.",
    idDescription: "The endpoint's id.",
    findFirst: (prisma, query) => prisma.webhookEndpoint.findFirst(query),
  }),
);
