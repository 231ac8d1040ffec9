// The webhook mutations: endpoints' lifecycle and redelivery, through
// src/services/webhook-endpoints.ts, in both forms (top-level errors, and
// typed errors in the payload's `userErrors`).

import type { ArgBuilder, InputFieldMap } from "@pothos/core";
import type PrismaTypes from "../../db/generated/pothos-types.js";
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../domain/webhook-endpoints.js";
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { MAX_WEBHOOK_URL_LENGTH } from "../../domain/webhook-url.js";
import type { EndpointChanges, EndpointSecret, NewEndpoint } from "../../services/webhook-endpoints.js";
import { builder, type SchemaTypes } from "../builder.js";
import type { GraphQLContext } from "../context.js";
import {
  type MutationPair,
  mutationPair,
  payloadType,
  type RecordLoader,
  type RecordQuery,
  recordOrNull,
  valueOrNull,
} from "../mutation-pair.js";
import { requireViewer } from "../require-viewer.js";
import { WebhookEndpointStatusEnum } from "./webhook-endpoint.js";

// What the REST reference says of the endpoint inputs, beyond their GraphQL types: checkEndpointFields' limits.
const URL_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_URL_LENGTH };
const DESCRIPTION_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH };
const ENABLED_EVENTS_INPUT_SCHEMA = {
  minItems: 1,
  uniqueItems: true,
  items: { enum: ["*", ...WEBHOOK_EVENT_TYPES] },
};

const loadEndpoint: RecordLoader<"WebhookEndpoint"> = (query, id, context) =>
  context.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id } });

/** The deliveries of `ids` with a field's selection, in id order. */
const loadDeliveries = (query: RecordQuery<"WebhookDelivery">, ids: string[], context: GraphQLContext) =>
  context.prisma.webhookDelivery.findMany({ ...query, where: { id: { in: ids } }, orderBy: { id: "asc" } });

const WebhookEndpointSecretRef = builder.objectRef<EndpointSecret>("WebhookEndpointWithSecret").implement({
  description: "An endpoint and its signing secret, which is shown only here: store it now.",
  fields: (t) => ({
    endpoint: t.prismaField({
      type: "WebhookEndpoint",
      description: "The endpoint.",
      resolve: (query, parent, _args, context) => loadEndpoint(query, parent.endpointId, context),
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
      description: "An https URL on the public internet (see docs/reference/webhooks.md, Security).",
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

/** The webhook endpoints' service for the request's buyer, its checks naming fields under `input`. */
function endpointsFor(context: GraphQLContext) {
  const buyerId = requireViewer(context).buyerId;
  const endpoints = context.webhookEndpoints(context.prisma);
  return {
    create: (input: NewEndpoint) => endpoints.create(buyerId, input, ["input"]),
    update: (id: string, input: EndpointChanges) => endpoints.update(buyerId, id, input, ["input"]),
    delete: (id: string) => endpoints.delete(buyerId, id),
    rotateSecret: (id: string) => endpoints.rotateSecret(buyerId, id),
    redeliver: (eventId: string, endpointId: string | null) =>
      endpoints.redeliver(buyerId, eventId, endpointId),
  };
}

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
      resolve: (query, parent, _args, context) => loadDeliveries(query, parent.deliveryIds, context),
    }),
  }),
});

// The twins' payloads: the same outcomes, each field null when refused, and `userErrors`.

const WebhookEndpointSecretPayloadRef = payloadType<EndpointSecret>("WebhookEndpointSecretPayload", {
  description: "An endpoint and its signing secret (shown only here), or why it was refused.",
  userErrors: "Why it was refused; empty when it was done.",
  fields: (t) => ({
    endpoint: recordOrNull(t, {
      type: "WebhookEndpoint",
      description: "The endpoint; null when refused.",
      id: (payload) => payload.endpointId,
      load: loadEndpoint,
    }),
    secret: valueOrNull(t, "secret", "String", "The signing secret; null when refused."),
  }),
});

const WebhookEndpointPayloadRef = payloadType<{ endpointId: string }>("WebhookEndpointPayload", {
  description: "The endpoint changed or deleted, or why it was refused.",
  userErrors: "Why it was refused; empty when it was done.",
  fields: (t) => ({
    endpointId: valueOrNull(t, "endpointId", "UUID", "The endpoint's id; null when refused."),
    endpoint: recordOrNull(t, {
      type: "WebhookEndpoint",
      description: "The endpoint as it is now; null when refused or deleted.",
      id: (payload) => payload.endpointId,
      load: (query, id, context) => context.prisma.webhookEndpoint.findUnique({ ...query, where: { id } }),
    }),
  }),
});

const EventRedeliverPayloadRef = payloadType<{ deliveryIds: string[] }>("EventRedeliverPayload", {
  description: "The deliveries queued, or why it was refused.",
  userErrors: "Why it was refused; empty when it was done.",
  fields: (t) => ({
    deliveries: t.prismaField({
      type: ["WebhookDelivery"],
      nullable: true,
      description: "One new delivery per endpoint; null when refused.",
      resolve: (query, payload, _args, context) =>
        payload.deliveryIds ? loadDeliveries(query, payload.deliveryIds, context) : null,
    }),
  }),
});

const endpointId = (arg: ArgBuilder<SchemaTypes>) =>
  arg({ type: "UUID", required: true, description: "The endpoint's id." });
const NOT_FOUND_ID = { NOT_FOUND: ["id"] };

/** A mutation that answers an endpoint with its new signing secret, shown only here. */
function secretMutation<Args extends InputFieldMap>(
  mutation: Omit<
    MutationPair<Args, EndpointSecret, EndpointSecret, never>,
    "answer" | "payload" | "toPayload"
  >,
) {
  mutationPair({
    ...mutation,
    answer: { type: WebhookEndpointSecretRef },
    payload: WebhookEndpointSecretPayloadRef,
    toPayload: (secret) => secret,
  });
}

secretMutation({
  name: "createWebhookEndpoint",
  description:
    "Creates a webhook endpoint and its signing secret, returned only here. VALIDATION_FAILED for a URL " +
    "that is not https, does not resolve, or resolves to a private address, and for unknown event types.",
  twin: "webhookEndpointCreate",
  typedErrors: "VALIDATION_FAILED comes in `userErrors`.",
  args: (arg) => ({
    input: arg({ type: CreateWebhookEndpointInput, required: true, description: "The endpoint." }),
  }),
  run: ({ input }, context) => endpointsFor(context).create(input),
});

/** A mutation of one of the buyer's endpoints, NOT_FOUND for another id; its twin answers the endpoint's id. */
function endpointMutation<Args extends InputFieldMap, Model extends keyof PrismaTypes = never>(
  mutation: Omit<
    MutationPair<Args, string, { endpointId: string }, Model>,
    "fieldOf" | "payload" | "toPayload"
  >,
) {
  mutationPair({
    ...mutation,
    fieldOf: NOT_FOUND_ID,
    payload: WebhookEndpointPayloadRef,
    toPayload: (endpointId) => ({ endpointId }),
  });
}

endpointMutation({
  name: "updateWebhookEndpoint",
  description:
    "Changes a webhook endpoint; ENABLED clears a failing or disabled state. NOT_FOUND when it is not " +
    "the buyer's; VALIDATION_FAILED as for createWebhookEndpoint, or for status FAILING.",
  twin: "webhookEndpointUpdate",
  typedErrors: "VALIDATION_FAILED and NOT_FOUND (field `id`) come in `userErrors`.",
  args: (arg) => ({
    id: endpointId(arg),
    input: arg({ type: UpdateWebhookEndpointInput, required: true, description: "The changes." }),
  }),
  run: ({ id, input }, context) => endpointsFor(context).update(id, input),
  answer: { record: "WebhookEndpoint", load: loadEndpoint },
});

endpointMutation({
  name: "deleteWebhookEndpoint",
  description:
    "Deletes a webhook endpoint and its deliveries; returns its id. NOT_FOUND when it is not the buyer's.",
  twin: "webhookEndpointDelete",
  typedErrors: "NOT_FOUND (field `id`) comes in `userErrors`.",
  args: (arg) => ({ id: endpointId(arg) }),
  run: ({ id }, context) => endpointsFor(context).delete(id),
  answer: { type: "UUID" },
});

secretMutation({
  name: "rotateWebhookEndpointSecret",
  description:
    "Makes a new signing secret, returned only here. For 24 hours deliveries are signed with both the " +
    "new and the previous secret, so receivers can switch without losing any. NOT_FOUND when the " +
    "endpoint is not the buyer's.",
  twin: "webhookEndpointSecretRotate",
  typedErrors: "NOT_FOUND (field `id`) comes in `userErrors`.",
  fieldOf: NOT_FOUND_ID,
  args: (arg) => ({ id: endpointId(arg) }),
  run: ({ id }, context) => endpointsFor(context).rotateSecret(id),
});

mutationPair({
  name: "redeliverEvent",
  description:
    "Queues an event again, as a new delivery with its own attempts. NOT_FOUND when the event or the " +
    "endpoint is not the buyer's; ENDPOINT_DISABLED when the endpoint named is disabled.",
  twin: "eventRedeliver",
  typedErrors: "NOT_FOUND (field `id`) comes in `userErrors`; ENDPOINT_DISABLED stays a top-level error.",
  fieldOf: NOT_FOUND_ID,
  args: (arg) => ({
    id: arg({ type: "UUID", required: true, description: "The event's id." }),
    input: arg({ type: RedeliverEventInput, description: "Where to send it." }),
  }),
  run: async ({ id, input }, context) => ({
    deliveryIds: await endpointsFor(context).redeliver(id, input?.endpointId ?? null),
  }),
  answer: { type: RedeliveryRef },
  payload: EventRedeliverPayloadRef,
  toPayload: (queued) => queued,
});
