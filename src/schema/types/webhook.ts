// Webhook endpoints, the events feed and deliveries, for GraphQL clients and
// for the REST routes that run these fields (docs/webhooks.md).
import { notFound } from "../../domain/errors.js";
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../domain/webhook-endpoints.js";
import { parseExactJson, WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events.js";
import { MAX_WEBHOOK_URL_LENGTH } from "../../domain/webhook-url.js";
import { createWebhookEndpoints, type EndpointSecret } from "../../services/webhook-endpoints.js";
import { builder } from "../builder.js";
import type { GraphQLContext } from "../context.js";
import { connectionType, readPageArgs, rootPageQuery, throwIfProblems, toConnection } from "../pagination.js";
import { requireViewer } from "../require-viewer.js";
import { answersUserErrors, UserErrorRef, type WithUserErrors } from "./user-error.js";

const EVENT_TYPES_SCHEMA = { enum: [...WEBHOOK_EVENT_TYPES] };
const ENABLED_EVENTS_SCHEMA = { type: "array", items: { enum: ["*", ...WEBHOOK_EVENT_TYPES] } };
// What the REST reference says of the endpoint inputs, beyond their GraphQL types: checkEndpointFields' limits.
const URL_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_URL_LENGTH };
const DESCRIPTION_INPUT_SCHEMA = { maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH };
const ENABLED_EVENTS_INPUT_SCHEMA = {
  minItems: 1,
  uniqueItems: true,
  items: { enum: ["*", ...WEBHOOK_EVENT_TYPES] },
};

function lowerCaseEnum<Value extends string>(name: string, values: readonly Value[], description: string) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      values.map((value) => [
        value.toUpperCase(),
        { value, description: `\`${value}\` in the REST API.`, extensions: { contractValue: value } },
      ]),
    ) as Record<string, { value: Value }>,
  });
}

export const WebhookEndpointStatusEnum = lowerCaseEnum(
  "WebhookEndpointStatus",
  ["enabled", "failing", "disabled"] as const,
  "ENABLED receives deliveries; FAILING still does, but a delivery ran out of retries (it becomes ENABLED " +
    "again on the next success, and DISABLED when it stays failing too long); DISABLED receives none.",
);

const WebhookDeliveryStatusEnum = lowerCaseEnum(
  "WebhookDeliveryStatus",
  ["pending", "delivering", "succeeded", "failed", "cancelled"] as const,
  "PENDING waits for its next attempt; DELIVERING is being attempted; SUCCEEDED got a 2xx; FAILED ran out " +
    "of retries; CANCELLED was not attempted because its endpoint was disabled.",
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

builder.prismaObject("WebhookDeliveryAttempt", {
  description: "One HTTP attempt of a delivery.",
  fields: (t) => ({
    attempt: t.exposeInt("attempt", { description: "1 for the first attempt, 2 for the first retry, …" }),
    statusCode: t.exposeInt("statusCode", {
      nullable: true,
      description: "The receiver's HTTP status; null when it did not answer.",
    }),
    durationMs: t.exposeInt("durationMs", { description: "How long the attempt took, in milliseconds." }),
    error: t.exposeString("error", {
      nullable: true,
      description: "Why it failed (a non-2xx status, a timeout, a refused address); null on success.",
    }),
    nextRetryAt: t.expose("nextRetryAt", {
      type: "DateTime",
      nullable: true,
      description: "When the next attempt is due; null when none follows.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the attempt was made." }),
  }),
});

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event sent to one endpoint, with every attempt so far.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The delivery's id." }),
    endpointId: t.expose("endpointId", { type: "UUID", description: "The endpoint." }),
    eventId: t.expose("eventId", { type: "UUID", description: "The event delivered." }),
    eventType: t.string({
      description: "The event's type.",
      extensions: { jsonSchema: EVENT_TYPES_SCHEMA },
      select: { event: { select: { type: true } } },
      resolve: (delivery) => delivery.event.type,
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
      select: { availableAt: true, status: true },
      resolve: (delivery) => (delivery.status === "pending" ? delivery.availableAt : null),
    }),
    succeededAt: t.expose("succeededAt", {
      type: "DateTime",
      nullable: true,
      description: "When a 2xx was received.",
    }),
    attempts: t.relation("tries", {
      description: "Every attempt, first to last.",
      query: { orderBy: { attempt: "asc" } },
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

/** The buyer's endpoint, or NOT_FOUND (another buyer's endpoint does not exist for this one). */
async function ownEndpoint(context: GraphQLContext, id: string) {
  const endpoint = await context.prisma.webhookEndpoint.findFirst({
    where: { id, buyerId: requireViewer(context).buyerId },
  });
  if (!endpoint) throw notFound("Webhook endpoint");
  return endpoint;
}

builder.queryField("webhookEndpoints", (t) =>
  t.field({
    type: WebhookEndpointConnectionRef,
    description: "The buyer's webhook endpoints, newest first.",
    args: {
      first: t.arg.int({ description: "Page size, 1 to 500; 100 when omitted." }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
    },
    resolve: async (_root, args, context, info) => {
      const where = { buyerId: requireViewer(context).buyerId };
      const problems: Parameters<typeof throwIfProblems>[0] = [];
      const page = readPageArgs(args, problems);
      throwIfProblems(problems);
      const rows = await context.prisma.webhookEndpoint.findMany(rootPageQuery(context, info, where, page));
      return toConnection(rows, page, () => context.prisma.webhookEndpoint.count({ where }));
    },
  }),
);

builder.queryField("webhookEndpoint", (t) =>
  t.prismaField({
    type: "WebhookEndpoint",
    nullable: true,
    description: "One of the buyer's webhook endpoints; null when there is none with this id.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The endpoint's id." }) },
    resolve: (query, _root, { id }, context) =>
      context.prisma.webhookEndpoint.findFirst({
        ...query,
        where: { id, buyerId: requireViewer(context).buyerId },
      }),
  }),
);

builder.queryField("webhookDeliveries", (t) =>
  t.field({
    type: WebhookDeliveryConnectionRef,
    description:
      "The deliveries to one of the buyer's endpoints, newest first, each with its attempts. NOT_FOUND when " +
      "the endpoint is not the buyer's.",
    args: {
      endpointId: t.arg({ type: "UUID", required: true, description: "The endpoint." }),
      first: t.arg.int({ description: "Page size, 1 to 500; 100 when omitted." }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
    },
    resolve: async (_root, args, context, info) => {
      const problems: Parameters<typeof throwIfProblems>[0] = [];
      const page = readPageArgs(args, problems);
      throwIfProblems(problems);
      const endpoint = await ownEndpoint(context, args.endpointId);
      const where = { endpointId: endpoint.id };
      const rows = await context.prisma.webhookDelivery.findMany(rootPageQuery(context, info, where, page));
      return toConnection(rows, page, () => context.prisma.webhookDelivery.count({ where }));
    },
  }),
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

const ONE_DAY_MS = 86_400_000;

builder.queryField("events", (t) =>
  t.field({
    type: WebhookEventConnectionRef,
    description: "The buyer's events, newest first (creation time, then id); kept for 30 days by default.",
    args: {
      first: t.arg.int({ description: "Page size, 1 to 500; 100 when omitted." }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
      filter: t.arg({ type: EventFilterInput, description: "Filters." }),
    },
    resolve: async (_root, args, context, info) => {
      const viewer = requireViewer(context);
      const problems: Parameters<typeof throwIfProblems>[0] = [];
      const page = readPageArgs(args, problems);
      const types = args.filter?.type ?? null;
      for (const [index, type] of (types ?? []).entries()) {
        if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
          problems.push({
            path: ["filter", "type", index],
            code: "invalid",
            message: `is not an event type; use one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
          });
        }
      }
      const from = args.filter?.createdAtFrom ?? null;
      const to = args.filter?.createdAtTo ?? null;
      if (from && to && from > to) {
        problems.push({
          path: ["filter", "createdAtFrom"],
          code: "invalid",
          message: "must not be later than the end date",
        });
      }
      throwIfProblems(problems);
      const where = {
        buyerId: viewer.buyerId,
        ...(types?.length ? { type: { in: types } } : {}),
        ...(from || to
          ? {
              createdAt: {
                ...(from ? { gte: from } : {}),
                ...(to ? { lt: new Date(to.getTime() + ONE_DAY_MS) } : {}),
              },
            }
          : {}),
      };
      const rows = await context.prisma.webhookEvent.findMany(rootPageQuery(context, info, where, page));
      return toConnection(rows, page, () => context.prisma.webhookEvent.count({ where }));
    },
  }),
);

builder.queryField("event", (t) =>
  t.prismaField({
    type: "WebhookEvent",
    nullable: true,
    description: "One of the buyer's events; null when there is none with this id (or it was pruned).",
    args: { id: t.arg({ type: "UUID", required: true, description: "The event's id." }) },
    resolve: (query, _root, { id }, context) =>
      context.prisma.webhookEvent.findFirst({
        ...query,
        where: { id, buyerId: requireViewer(context).buyerId },
      }),
  }),
);

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
  return {
    buyerId: requireViewer(context).buyerId,
    endpoints: createWebhookEndpoints(context.prisma, context.webhooks),
  };
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
      userErrors: t.field({
        type: [UserErrorRef],
        description: "Why it was refused; empty when it was done.",
        resolve: (payload) => payload.userErrors ?? [],
      }),
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
      userErrors: t.field({
        type: [UserErrorRef],
        description: "Why it was refused; empty when it was done.",
        resolve: (payload) => payload.userErrors ?? [],
      }),
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
      userErrors: t.field({
        type: [UserErrorRef],
        description: "Why it was refused; empty when it was done.",
        resolve: (payload) => payload.userErrors ?? [],
      }),
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
