import type { GraphQLSchema } from "graphql";
import { EVENT_RECORD_DOCUMENTS } from "../../contract/event-records.js";
import { compileRoute } from "../compiled-route.js";
import { responseSchema, type SchemaRegistry } from "./schemas.js";
import type { JsonSchema } from "./types.js";

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
      const compiled = compileRoute(schema, {
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
      const object = responseSchema(compiled, registry, `${pascalCase(recordType)}EventObject`);
      if (!object) throw new Error(`OpenAPI: the event record ${recordType} renders no object`);
      return [recordType, object];
    }),
  );
}

/**
 * Replaces the `WebhookEvent` schema, when a route answers events, by a
 * `oneOf` of one schema per event type with a `discriminator` on `type`.
 * Every other member of an event keeps the schema the selection gave it.
 */
export function typeWebhookEvents(schema: GraphQLSchema, registry: SchemaRegistry): void {
  const event = registry.schemas[EVENT];
  if (event === undefined) return;
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
        type: "object",
        description: data.description,
        properties: {
          object,
          ...(updated
            ? {
                previous_attributes: {
                  type: "object",
                  additionalProperties: true,
                  description: "The earlier values of the fields of `object` that changed, in its spelling.",
                },
              }
            : {}),
        },
        required: updated ? ["object", "previous_attributes"] : ["object"],
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
}
