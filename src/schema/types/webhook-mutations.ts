// The webhook mutations: endpoints' lifecycle and redelivery, through
// src/services/webhook-endpoints.ts, in both forms (top-level errors, and
// typed errors in the payload's `userErrors`).
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../domain/webhook-endpoints.js";
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { MAX_WEBHOOK_URL_LENGTH } from "../../domain/webhook-url.js";
import type { EndpointSecret } from "../../services/webhook-endpoints.js";
import { builder } from "../builder.js";
import type { GraphQLContext } from "../context.js";
import { requireViewer } from "../require-viewer.js";
import { answersUserErrors, userErrorsField, type WithUserErrors } from "./user-error.js";
import { WebhookEndpointStatusEnum } from "./webhook-endpoint.js";

// What the REST reference says of the endpoint inputs, beyond their GraphQL types: checkEndpointFields' limits.
const URL_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_URL_LENGTH };
const DESCRIPTION_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH };
const ENABLED_EVENTS_INPUT_SCHEMA = {
  minItems: 1,
  uniqueItems: true,
  items: { enum: ["*", ...WEBHOOK_EVENT_TYPES] },
};

const WebhookEndpointSecretRef = builder.objectRef<EndpointSecret>("WebhookEndpointWithSecret").implement({
  description: "An endpoint and its signing secret, which is shown only here: store it now.",
  fields: (t) => ({
    endpoint: t.prismaField({
      type: "WebhookEndpoint",
      description: "The endpoint.",
      resolve: (query, parent, _args, context) =>
        context.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.endpointId } }),
    }),
    secret: t.exposeString("secret", {
      description:
        "The signing secret (`whsec_` and base64), for the `standardwebhooks` library. Shown once.",
    }),
  }),
});

const CreateWebhookEndpointInput = builder.inputType("CreateWebhookEndpointInput", {
  description: "A new webhook endpoint.",
  fields: (t) => ({
    url: t.string({
      required: true,
      description: "An https URL on the public internet (see docs/webhooks.md, Security).",
      extensions: { jsonSchema: URL_INPUT_SCHEMA },
    }),
    enabledEvents: t.stringList({
      required: true,
      description: 'Event types to send, or ["*"] for all.',
      extensions: { jsonSchema: ENABLED_EVENTS_INPUT_SCHEMA },
    }),
    description: t.string({
      description: "A note for the buyer; at most 1000 characters.",
      extensions: { jsonSchema: DESCRIPTION_INPUT_SCHEMA },
    }),
  }),
});

const UpdateWebhookEndpointInput = builder.inputType("UpdateWebhookEndpointInput", {
  description: "Changes to a webhook endpoint; absent fields are left as they are.",
  fields: (t) => ({
    url: t.string({
      description: "An https URL on the public internet.",
      extensions: { jsonSchema: URL_INPUT_SCHEMA },
    }),
    enabledEvents: t.stringList({
      description: 'Event types to send, or ["*"] for all.',
      extensions: { jsonSchema: ENABLED_EVENTS_INPUT_SCHEMA },
    }),
    description: t.string({
      description: "A note for the buyer; null clears it.",
      extensions: { jsonSchema: DESCRIPTION_INPUT_SCHEMA },
    }),
    status: t.field({
      type: WebhookEndpointStatusEnum,
      description: "ENABLED (also to re-enable a failing or disabled endpoint) or DISABLED.",
      // FAILING is set by deliveries only (the service refuses it).
      extensions: { jsonSchema: { enum: ["enabled", "disabled"] } },
    }),
  }),
});

/** The webhook endpoints' service for the request's buyer. */
function endpointsFor(context: GraphQLContext) {
  return { buyerId: requireViewer(context).buyerId, endpoints: context.webhookEndpoints(context.prisma) };
}

builder.mutationField("createWebhookEndpoint", (t) =>
  t.field({
    type: WebhookEndpointSecretRef,
    description:
      "Creates a webhook endpoint and its signing secret, returned only here. VALIDATION_FAILED for a URL " +
      "that is not https, does not resolve, or resolves to a private address, and for unknown event types.",
    args: {
      input: t.arg({ type: CreateWebhookEndpointInput, required: true, description: "The endpoint." }),
    },
    resolve: (_root, { input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return endpoints.create(buyerId, input, ["input"]);
    },
  }),
);

builder.mutationField("updateWebhookEndpoint", (t) =>
  t.prismaField({
    type: "WebhookEndpoint",
    description:
      "Changes a webhook endpoint; ENABLED clears a failing or disabled state. NOT_FOUND when it is not " +
      "the buyer's; VALIDATION_FAILED as for createWebhookEndpoint, or for status FAILING.",
    args: {
      id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true, description: "The changes." }),
    },
    resolve: async (query, _root, { id, input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      const endpointId = await endpoints.update(buyerId, id, input, ["input"]);
      return context.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpointId } });
    },
  }),
);

builder.mutationField("deleteWebhookEndpoint", (t) =>
  t.field({
    type: "UUID",
    description:
      "Deletes a webhook endpoint and its deliveries; returns its id. NOT_FOUND when it is not the buyer's.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }) },
    resolve: (_root, { id }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return endpoints.delete(buyerId, id);
    },
  }),
);

builder.mutationField("rotateWebhookEndpointSecret", (t) =>
  t.field({
    type: WebhookEndpointSecretRef,
    description:
      "Makes a new signing secret, returned only here. For 24 hours deliveries are signed with both the " +
      "new and the previous secret, so receivers can switch without losing any. NOT_FOUND when the " +
      "endpoint is not the buyer's.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }) },
    resolve: (_root, { id }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return endpoints.rotateSecret(buyerId, id);
    },
  }),
);

const RedeliverEventInput = builder.inputType("RedeliverEventInput", {
  description: "Where to send an event again.",
  fields: (t) => ({
    endpointId: t.field({
      type: "UUID",
      description:
        "One endpoint (CONFLICT when it is disabled); absent: every enabled endpoint subscribed to the event's type.",
    }),
  }),
});

const RedeliveryRef = builder.objectRef<{ deliveryIds: string[] }>("Redelivery").implement({
  description: "The deliveries queued by a redelivery.",
  fields: (t) => ({
    deliveries: t.prismaField({
      type: ["WebhookDelivery"],
      description: "One new delivery per endpoint, pending.",
      resolve: (query, parent, _args, context) =>
        context.prisma.webhookDelivery.findMany({
          ...query,
          where: { id: { in: parent.deliveryIds } },
          orderBy: { id: "asc" },
        }),
    }),
  }),
});

builder.mutationField("redeliverEvent", (t) =>
  t.field({
    type: RedeliveryRef,
    description:
      "Queues an event again, as a new delivery with its own attempts. NOT_FOUND when the event or the " +
      "endpoint is not the buyer's; ENDPOINT_DISABLED when the endpoint named is disabled.",
    args: {
      id: t.arg({ type: "UUID", required: true, description: "The event's id." }),
      input: t.arg({ type: RedeliverEventInput, description: "Where to send it." }),
    },
    resolve: async (_root, { id, input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return { deliveryIds: await endpoints.redeliver(buyerId, id, input?.endpointId ?? null) };
    },
  }),
);

// The same mutations with typed errors: refusals come in the payload's `userErrors`.

const WebhookEndpointSecretPayloadRef = builder
  .objectRef<WithUserErrors<{ endpointId: string; secret: string }>>("WebhookEndpointSecretPayload")
  .implement({
    description: "An endpoint and its signing secret (shown only here), or why it was refused.",
    fields: (t) => ({
      endpoint: t.prismaField({
        type: "WebhookEndpoint",
        nullable: true,
        description: "The endpoint; null when refused.",
        resolve: (query, payload, _args, context) =>
          payload.endpointId
            ? context.prisma.webhookEndpoint.findUniqueOrThrow({
                ...query,
                where: { id: payload.endpointId },
              })
            : null,
      }),
      secret: t.string({
        nullable: true,
        description: "The signing secret; null when refused.",
        resolve: (payload) => payload.secret ?? null,
      }),
      userErrors: userErrorsField(t, "Why it was refused; empty when it was done."),
    }),
  });

const WebhookEndpointPayloadRef = builder
  .objectRef<WithUserErrors<{ endpointId: string }>>("WebhookEndpointPayload")
  .implement({
    description: "The endpoint changed or deleted, or why it was refused.",
    fields: (t) => ({
      endpointId: t.field({
        type: "UUID",
        nullable: true,
        description: "The endpoint's id; null when refused.",
        resolve: (payload) => payload.endpointId ?? null,
      }),
      endpoint: t.prismaField({
        type: "WebhookEndpoint",
        nullable: true,
        description: "The endpoint as it is now; null when refused or deleted.",
        resolve: (query, payload, _args, context) =>
          payload.endpointId
            ? context.prisma.webhookEndpoint.findUnique({ ...query, where: { id: payload.endpointId } })
            : null,
      }),
      userErrors: userErrorsField(t, "Why it was refused; empty when it was done."),
    }),
  });

const EventRedeliverPayloadRef = builder
  .objectRef<WithUserErrors<{ deliveryIds: string[] }>>("EventRedeliverPayload")
  .implement({
    description: "The deliveries queued, or why it was refused.",
    fields: (t) => ({
      deliveries: t.prismaField({
        type: ["WebhookDelivery"],
        nullable: true,
        description: "One new delivery per endpoint; null when refused.",
        resolve: (query, payload, _args, context) =>
          payload.deliveryIds
            ? context.prisma.webhookDelivery.findMany({
                ...query,
                where: { id: { in: payload.deliveryIds } },
                orderBy: { id: "asc" },
              })
            : null,
      }),
      userErrors: userErrorsField(t, "Why it was refused; empty when it was done."),
    }),
  });

builder.mutationField("webhookEndpointCreate", (t) =>
  t.field({
    type: WebhookEndpointSecretPayloadRef,
    description: "createWebhookEndpoint with typed errors: VALIDATION_FAILED comes in `userErrors`.",
    args: {
      input: t.arg({ type: CreateWebhookEndpointInput, required: true, description: "The endpoint." }),
    },
    extensions: answersUserErrors(),
    resolve: async (_root, { input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return { ...(await endpoints.create(buyerId, input, ["input"])), userErrors: [] };
    },
  }),
);

builder.mutationField("webhookEndpointUpdate", (t) =>
  t.field({
    type: WebhookEndpointPayloadRef,
    description:
      "updateWebhookEndpoint with typed errors: VALIDATION_FAILED and NOT_FOUND (field `id`) come in `userErrors`.",
    args: {
      id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true, description: "The changes." }),
    },
    extensions: answersUserErrors({ NOT_FOUND: ["id"] }),
    resolve: async (_root, { id, input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return { endpointId: await endpoints.update(buyerId, id, input, ["input"]), userErrors: [] };
    },
  }),
);

builder.mutationField("webhookEndpointDelete", (t) =>
  t.field({
    type: WebhookEndpointPayloadRef,
    description: "deleteWebhookEndpoint with typed errors: NOT_FOUND (field `id`) comes in `userErrors`.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }) },
    extensions: answersUserErrors({ NOT_FOUND: ["id"] }),
    resolve: async (_root, { id }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return { endpointId: await endpoints.delete(buyerId, id), userErrors: [] };
    },
  }),
);

builder.mutationField("webhookEndpointSecretRotate", (t) =>
  t.field({
    type: WebhookEndpointSecretPayloadRef,
    description:
      "rotateWebhookEndpointSecret with typed errors: NOT_FOUND (field `id`) comes in `userErrors`.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }) },
    extensions: answersUserErrors({ NOT_FOUND: ["id"] }),
    resolve: async (_root, { id }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return { ...(await endpoints.rotateSecret(buyerId, id)), userErrors: [] };
    },
  }),
);

builder.mutationField("eventRedeliver", (t) =>
  t.field({
    type: EventRedeliverPayloadRef,
    description:
      "redeliverEvent with typed errors: NOT_FOUND (field `id`) comes in `userErrors`; ENDPOINT_DISABLED stays " +
      "a top-level error.",
    args: {
      id: t.arg({ type: "UUID", required: true, description: "The event's id." }),
      input: t.arg({ type: RedeliverEventInput, description: "Where to send it." }),
    },
    extensions: answersUserErrors({ NOT_FOUND: ["id"] }),
    resolve: async (_root, { id, input }, context) => {
      const { buyerId, endpoints } = endpointsFor(context);
      return {
        deliveryIds: await endpoints.redeliver(buyerId, id, input?.endpointId ?? null),
        userErrors: [],
      };
    },
  }),
);
