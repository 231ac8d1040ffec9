import type { GraphQLSchema } from "graphql";
import { EVENT_RECORD_DOCUMENTS } from "../contract/event-records.js";
import { MAX_EVENT_DATA_BYTES } from "../domain/webhook-events.js";
import { readRouteOperation } from "../rest/route-operation.js";
import { responseSchema, type SchemaRegistry } from "./schemas.js";
import type { JsonSchema, Operation, Parameter, PathItem } from "./types.js";

// Events as a union on `type`: the schema reads `data` as JSON, but each event
// type's `data.object` is a record rendered by a known operation
// (src/contract/event-records.ts), so the document can give it that
// operation's schema, the same component as the record's REST answer.

const EVENT = "WebhookEvent";

const pascalCase = (name: string) =>
  name.replace(/(?:^|[._])([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** The schema of each record type's event object, read off the operation that renders it. */
function objectSchemas(schema: GraphQLSchema, registry: SchemaRegistry): Map<string, JsonSchema> {
  return new Map(
    Object.entries(EVENT_RECORD_DOCUMENTS).map(([recordType, document]) => {
      const operation = readRouteOperation(schema, {
        operationId: `render ${recordType}`,
        method: "GET",
        path: "/{id}",
        document,
        success: { description: "" },
        summary: "",
        tag: "",
        description: "",
      });
      // Where an event shows more than the record's REST read (a buyer product's `auto_match`).
      const object = responseSchema(operation, registry, `${pascalCase(recordType)}EventObject`);
      if (!object) throw new Error(`OpenAPI: the event record ${recordType} renders no object`);
      return [recordType, object];
    }),
  );
}

/** In place of `object` and `previous_attributes`, in an event over the size limit (docs/reference/webhooks.md "Event size"). */
const OBJECT_OMITTED: JsonSchema = {
  type: "object",
  description: `Present instead of \`object\` (and \`previous_attributes\`) when they would make \`data\` larger than ${MAX_EVENT_DATA_BYTES} bytes: read the record at \`url\`.`,
  properties: {
    reason: { type: "string", enum: ["too_large"], description: "Why the record was left out." },
    size_bytes: {
      type: "integer",
      description: "The size of the `data` left out, in bytes of its JSON text.",
    },
    max_bytes: { type: "integer", description: "The largest `data` an event carries." },
    id: { type: "string", format: "uuid", description: "The record (for a tagging, the tagged record)." },
    url: {
      type: ["string", "null"],
      description:
        "The path of the REST read that answers the record, under the API's origin; null where the record type has none.",
    },
  },
  required: ["reason", "size_bytes", "max_bytes", "id", "url"],
};

/**
 * Replaces the `WebhookEvent` schema, when a route answers events, by a
 * `oneOf` of one schema per event type with a `discriminator` on `type`.
 * Every other member of an event keeps the schema the selection gave it.
 * Returns each event type's schema (a reference), none when no route answers events.
 */
export function typeWebhookEvents(schema: GraphQLSchema, registry: SchemaRegistry): Map<string, string> {
  const event = registry.schemas[EVENT];
  if (event === undefined) return new Map();
  const { type, data } = event.properties ?? {};
  const types = type?.enum;
  if (!types || !data) throw new Error(`OpenAPI: ${EVENT} has no \`type\` enum or no \`data\``);
  const objects = objectSchemas(schema, registry);
  const mapping: Record<string, string> = {};
  for (const eventType of types.map(String)) {
    const [recordType = "", change] = eventType.split(".");
    const object = objects.get(recordType);
    if (!object) throw new Error(`OpenAPI: no operation renders the record of ${eventType} events`);
    const updated = change === "updated";
    const typed: Record<string, JsonSchema> = {
      type: { type: "string", const: eventType, description: "The event type." },
      data: {
        description: data.description,
        // The whole record, or, for an event over the size limit, only where to read it.
        oneOf: [
          {
            type: "object",
            properties: {
              object,
              ...(updated
                ? {
                    previous_attributes: {
                      type: "object",
                      additionalProperties: true,
                      description:
                        "The earlier values of the fields of `object` that changed, in its spelling.",
                    },
                  }
                : {}),
            },
            required: updated ? ["object", "previous_attributes"] : ["object"],
          },
          {
            type: "object",
            properties: { object_omitted: OBJECT_OMITTED },
            required: ["object_omitted"],
          },
        ],
      },
    };
    const properties = Object.fromEntries(
      Object.entries(event.properties ?? {}).map(([name, property]) => [name, typed[name] ?? property]),
    );
    const member = registry.ref(`${pascalCase(eventType)}Event`, {
      type: "object",
      description: `An event of type \`${eventType}\`.`,
      properties,
      required: event.required ?? [],
    });
    if (member.$ref === undefined) throw new Error(`OpenAPI: ${eventType} was not registered`);
    mapping[eventType] = member.$ref;
  }
  registry.schemas[EVENT] = {
    description: event.description,
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: "type", mapping },
  };
  return new Map(Object.entries(mapping));
}

/** The Standard Webhooks headers of every delivery (docs/reference/webhooks.md "Verifying a delivery"). */
const DELIVERY_HEADERS: Parameter[] = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The event's `id`, the same on every retry and redelivery: drop the duplicates.",
    schema: { type: "string", format: "uuid" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "When this attempt was sent, in Unix seconds; refuse one far from now.",
    schema: { type: "integer" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's signing secret; space-separated when two secrets sign. Verify the raw body before parsing it.",
    schema: { type: "string" },
  },
];

/**
 * The top-level `webhooks` of the document: one POST per event type, as the
 * service sends it to a webhook endpoint, so that generators write the
 * receiving side's types too.
 */
export function webhookOperations(eventTypes: ReadonlyMap<string, string>): Record<string, PathItem> {
  return Object.fromEntries(
    [...eventTypes].map(([eventType, $ref]): [string, PathItem] => {
      const operation: Operation = {
        operationId: pascalCase(eventType).replace(/^./, (letter) => letter.toLowerCase()),
        summary: eventType,
        description: `Sent to every enabled webhook endpoint subscribed to \`${eventType}\` (or \`*\`), signed under the Standard Webhooks specification and retried with backoff until it is answered with a 2xx.`,
        tags: [WEBHOOKS_TAG],
        security: [],
        parameters: DELIVERY_HEADERS,
        requestBody: {
          required: true,
          description: "The event, as the event feed lists it.",
          content: { "application/json": { schema: { $ref }, examples: {} } },
        },
        responses: {
          "2XX": { description: "Received. The answer's body is read and ignored." },
          "4XX": {
            description:
              "Not received (a signature that does not verify, say): the attempt failed and is retried, as is any answer other than a 2xx.",
          },
        },
      };
      return [eventType, { post: operation }];
    }),
  );
}

/** The tag of the webhooks' operations, beside the routes' tags. */
export const WEBHOOKS_TAG = "Webhooks";
