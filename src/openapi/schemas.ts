import { isDeepStrictEqual } from "node:util";
import {
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLNonNull,
  type GraphQLOutputType,
  type GraphQLScalarType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";
import { restDescription } from "../contract/descriptions.js";
import type { BodyFieldHint } from "../contract/route.js";
import { MAX_STRING_LENGTH } from "../domain/input-checks.js";
import { enumSpelling, INT_RANGE, snakeCase } from "../rest/rest-spelling.js";
import { nodeTypesOf, type RouteOperation, type Selected, selectedAt } from "../rest/route-operation.js";
import type { JsonSchema } from "./types.js";

// JSON Schemas of the GraphQL types the routes feed and read, in the REST spelling.

/**
 * Named schemas under `components.schemas`. A name is given once per distinct
 * schema: two routes selecting the same fields of `Order` share one `Order`,
 * a different selection of it becomes `Order2` rather than silently merging.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  /** `otherwise`: the name to give `schema` when `name` is another schema's, rather than `name` numbered. */
  ref(name: string, schema: JsonSchema, otherwise?: string): JsonSchema {
    const existing = this.schemas[name];
    if (otherwise !== undefined && existing !== undefined && !isDeepStrictEqual(existing, schema))
      return this.ref(otherwise, schema);
    for (let index = 1; ; index++) {
      const candidate = index === 1 ? name : `${name}${index}`;
      const existing = this.schemas[candidate];
      if (existing === undefined) this.schemas[candidate] = schema;
      else if (!isDeepStrictEqual(existing, schema)) continue;
      return { $ref: `#/components/schemas/${candidate}` };
    }
  }
}

/** `schema` that also admits null: `type: [X, "null"]`, or `anyOf` for a reference. */
function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) return { anyOf: [{ $ref: schema.$ref }, { type: "null" }] };
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return {
    ...schema,
    type: types.includes("null") ? types : [...types, "null"],
    ...(schema.enum ? { enum: schema.enum.includes(null) ? schema.enum : [...schema.enum, null] } : {}),
  };
}

/** A description beside a schema; kept out of the way when there is none. */
function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/** docs/design/decisions.md §3 "Requests and responses": every date-time written has milliseconds and a Z. */
const WRITTEN_DATE_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

const SCALARS: Record<string, JsonSchema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  UUID: { type: "string", format: "uuid" },
  DateTime: { type: "string", format: "date-time" },
  Date: { type: "string", format: "date" },
  // Exact decimals are written as JSON numbers (docs/design/decisions.md §3 "Requests and responses").
  Decimal: { type: "number" },
  JSON: {},
};

/**
 * The JSON Schema of a scalar or enum as the REST API spells it: enums in the
 * contract's spelling (`extensions.contractValue`), never the GraphQL names.
 * `direction` matters for date-times: we accept any RFC 3339 form but write one.
 */
export function leafSchema(
  type: GraphQLScalarType | GraphQLEnumType,
  direction: "input" | "output",
): JsonSchema {
  if (isEnumType(type)) return { type: "string", enum: [...enumSpelling(type).fromContract.keys()] };
  const schema = SCALARS[type.name];
  if (!schema) throw new Error(`OpenAPI: no JSON Schema is defined for the GraphQL scalar ${type.name}`);
  if (type.name === "DateTime" && direction === "output") return { ...schema, pattern: WRITTEN_DATE_TIME };
  return { ...schema };
}

/** Global IDs are base64 (`src/schema/global-ids.ts`); which type one names is checked by the service. */
const GLOBAL_ID_PATTERN = "^[A-Za-z0-9+/]+={0,2}$";

/**
 * The schema of an id the service takes: a UUID, or also a global ID where the
 * argument or field takes the global IDs of `nodeTypes` (docs/design/decisions.md §3 "Ids").
 */
export function idSchema(nodeTypes: readonly string[], registry: SchemaRegistry): JsonSchema {
  if (nodeTypes.length === 0) return { type: "string", format: "uuid" };
  return registry.ref("IdOrGlobalId", {
    description:
      "A record's UUID, or its global ID: the opaque `id` the GraphQL API gives the record, which names its type too.",
    anyOf: [
      { type: "string", format: "uuid" },
      { type: "string", pattern: GLOBAL_ID_PATTERN },
    ],
  });
}

interface InputSchemaOptions {
  registry: SchemaRegistry;
  /** Body strings are limited (docs/design/decisions.md §6 "Limits"); query parameters have their own rules. */
  limitStrings: boolean;
}

/**
 * The JSON Schema of a value of a GraphQL input type; `nodeTypes`, for an id,
 * the record types whose global IDs it takes besides UUIDs.
 */
export function inputSchema(
  type: GraphQLInputType,
  options: InputSchemaOptions,
  nodeTypes: readonly string[] = [],
): JsonSchema {
  if (isNonNullType(type)) return inputSchema(type.ofType, options, nodeTypes);
  if (isListType(type)) {
    const item = inputSchema(type.ofType, options, nodeTypes);
    return { type: "array", items: isNonNullType(type.ofType) ? item : nullable(item) };
  }
  if (isInputObjectType(type)) {
    return options.registry.ref(type.name, inputObjectSchema(type, options, new Set(), {}));
  }
  if (type.name === "UUID") return idSchema(nodeTypes, options.registry);
  const schema = leafSchema(type, "input");
  // The range the server checks; a field's own limits (`extensions.jsonSchema`) narrow it.
  if (type.name === "Int") return { ...schema, ...INT_RANGE };
  return options.limitStrings && type.name === "String"
    ? { ...schema, maxLength: MAX_STRING_LENGTH }
    : schema;
}

/** An input object with snake_case properties; required are the non-null fields without a default. */
export function inputObjectSchema(
  type: GraphQLInputObjectType,
  options: InputSchemaOptions,
  omit: ReadonlySet<string>,
  hints: Record<string, BodyFieldHint>,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const fields = Object.values(type.getFields()).filter((field) => !omit.has(snakeCase(field.name)));
  const known = new Set(fields.map((field) => snakeCase(field.name)));
  for (const name of Object.keys(hints)) {
    if (!known.has(name)) throw new Error(`OpenAPI: a hint names ${name}, which ${type.name} does not have`);
  }
  for (const field of fields) {
    const name = snakeCase(field.name);
    const { acceptsNull, ...keywords } = hints[name] ?? {};
    // `extensions.jsonSchema` says what the GraphQL type cannot: the resolvers' limits, the values a string takes.
    const hint = (field.extensions.jsonSchema ?? {}) as JsonSchema;
    const typed = inputSchema(field.type, options, nodeTypesOf(field.extensions));
    let schema: JsonSchema = {
      ...typed,
      ...hint,
      ...(typed.items && hint.items ? { items: { ...typed.items, ...hint.items } } : {}),
      ...keywords,
    };
    if (acceptsNull) schema = nullable(schema);
    const defaultValue = field.defaultValue;
    if (["string", "number", "boolean"].includes(typeof defaultValue)) schema.default = defaultValue;
    properties[name] = described(schema, restDescription(`${type.name}.${field.name}`, field.description));
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(name);
  }
  return described(
    { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    restDescription(type.name, type.description),
  );
}

/**
 * The schema of the response body, read off the route's selection;
 * `otherwise`, the name of its object when its type's name is another selection's.
 */
export function responseSchema(
  { route, selections, response }: RouteOperation,
  registry: SchemaRegistry,
  otherwise?: string,
): JsonSchema | null {
  const selected = selections.get(response.at);
  if (response.empty || !selected) return null;
  if (response.list) {
    const node = selectedAt(selections, `${response.at}.edges.node`);
    return node ? { type: "array", items: outputSchema(node, registry) } : null;
  }
  // A null object is answered 404, so the body itself is never null.
  const type = isNonNullType(selected.field.type) ? selected.field.type.ofType : selected.field.type;
  if (response.spread === undefined)
    return outputSchema(selected, registry, new GraphQLNonNull(type), otherwise);
  const inner = selected.children.get(response.spread);
  const others = new Map([...selected.children].filter(([key]) => key !== response.spread));
  const properties = {
    ...(inner && objectProperties(inner.children, registry)),
    ...objectProperties(others, registry),
  };
  const name = `${route.operationId.charAt(0).toUpperCase()}${route.operationId.slice(1)}Response`;
  return registry.ref(name, { type: "object", properties, required: Object.keys(properties) });
}

function outputSchema(
  selected: Selected,
  registry: SchemaRegistry,
  type: GraphQLOutputType = selected.field.type,
  otherwise?: string,
): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: "array", items: outputSchema(selected, registry, inner.ofType) };
  else if (isScalarType(inner) || isEnumType(inner)) schema = leafSchema(inner, "output");
  else if (isObjectType(inner)) {
    const properties = objectProperties(selected.children, registry);
    const object: JsonSchema = { type: "object", properties, required: Object.keys(properties) };
    const description = restDescription(inner.name, inner.description);
    schema = registry.ref(inner.name, described(object, description), otherwise);
  } else throw new Error(`OpenAPI: ${inner.name}: interfaces and unions are not supported`);
  return isNonNullType(type) ? schema : nullable(schema);
}

/** Every selected field is present in a GraphQL result, null or not: all are required. */
function objectProperties(
  selections: Map<string, Selected>,
  registry: SchemaRegistry,
): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, selected] of selections) {
    const { field, parentType } = selected;
    // `extensions.jsonSchema` says what the GraphQL type cannot, such as the values of a string.
    const hint = field.extensions.jsonSchema as JsonSchema | undefined;
    const description = restDescription(`${parentType}.${field.name}`, field.description);
    properties[key] = described({ ...outputSchema(selected, registry), ...hint }, description);
  }
  return properties;
}
