import {
  type GraphQLInputObjectType,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { MAX_STRING_LENGTH } from "../../domain/input-checks.js";
import { snakeCase } from "../rest-spelling.js";
import { leafSchema } from "./leaf-schema.js";
import { described, nullable, type SchemaRegistry } from "./schema-registry.js";
import type { BodyFieldHint, JsonSchema } from "./types.js";

export interface InputSchemaOptions {
  registry: SchemaRegistry;
  /** Body strings are limited (docs/decisions.md §6 "Limits"); query parameters have their own rules. */
  limitStrings: boolean;
}

/** The JSON Schema of a value of a GraphQL input type, in the REST spelling. */
export function inputSchema(type: GraphQLInputType, options: InputSchemaOptions): JsonSchema {
  if (isNonNullType(type)) return inputSchema(type.ofType, options);
  if (isListType(type)) {
    const item = inputSchema(type.ofType, options);
    return { type: "array", items: isNonNullType(type.ofType) ? item : nullable(item) };
  }
  if (isInputObjectType(type)) {
    return options.registry.ref(type.name, inputObjectSchema(type, options, new Set(), {}));
  }
  if (isScalarType(type) || isEnumType(type)) {
    const schema = leafSchema(type, "input");
    return options.limitStrings && type.name === "String"
      ? { ...schema, maxLength: MAX_STRING_LENGTH }
      : schema;
  }
  throw new Error("OpenAPI: unexpected input type");
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
    let schema = { ...inputSchema(field.type, options), ...keywords };
    if (acceptsNull) schema = nullable(schema);
    const defaultValue = field.defaultValue;
    if (
      typeof defaultValue === "string" ||
      typeof defaultValue === "number" ||
      typeof defaultValue === "boolean"
    ) {
      schema.default = defaultValue;
    }
    properties[name] = described(schema, field.description);
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(name);
  }
  return described(
    { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    type.description,
  );
}
