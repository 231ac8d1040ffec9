import {
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { type CompiledRoute, selectedAt } from "../compiled-route.js";
import { leafSchema } from "./leaf-schema.js";
import { described, nullable, type SchemaRegistry } from "./schema-registry.js";
import type { JsonSchema } from "./types.js";

/** The schema of the response body, read off the route's selection at its response path. */
export function responseSchema(
  schema: GraphQLSchema,
  compiled: CompiledRoute,
  registry: SchemaRegistry,
): JsonSchema | null {
  const { route, operation } = compiled;
  const response = route.response;
  if (response.kind === "empty") return null;
  const fail = (message: string): never => {
    throw new Error(`OpenAPI: ${route.operationId}: ${message}`);
  };
  const { field, selectionSet } = selectedAt(schema, operation, response.at, fail);
  if (response.kind === "list") {
    const node = selectedAt(schema, operation, `${response.at}.edges.node`, fail);
    return { type: "array", items: outputSchema(node.field.type, node.selectionSet, registry) };
  }
  // A null object is answered 404, so the body itself is never null.
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  if (response.spread === undefined) return outputSchema(new GraphQLNonNull(type), selectionSet, registry);
  const parent = getNamedType(field.type);
  const inner = selectedAt(schema, operation, `${response.at}.${response.spread}`, fail);
  const innerType = getNamedType(inner.field.type);
  if (!isObjectType(parent) || !isObjectType(innerType)) return fail("only an object can be spread");
  const lifted = objectProperties(innerType, inner.selectionSet, registry);
  const properties = { ...lifted, ...objectProperties(parent, selectionSet, registry, response.spread) };
  const name = `${route.operationId.charAt(0).toUpperCase()}${route.operationId.slice(1)}Response`;
  return registry.ref(name, { type: "object", properties, required: Object.keys(properties) });
}

function outputSchema(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  registry: SchemaRegistry,
): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner))
    schema = { type: "array", items: outputSchema(inner.ofType, selectionSet, registry) };
  else if (isScalarType(inner) || isEnumType(inner)) schema = leafSchema(inner, "output");
  else if (isObjectType(inner)) {
    const properties = objectProperties(inner, selectionSet, registry);
    const object: JsonSchema = { type: "object", properties, required: Object.keys(properties) };
    schema = registry.ref(inner.name, described(object, inner.description));
  } else throw new Error(`OpenAPI: ${inner.name}: interfaces and unions are not supported`);
  return isNonNullType(type) ? schema : nullable(schema);
}

/** Every selected field is present in a GraphQL result, null or not: all are required. */
function objectProperties(
  parent: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  registry: SchemaRegistry,
  /** A response key left out: a field spread into its parent. */
  skip?: string,
): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      Object.assign(properties, objectProperties(parent, selection.selectionSet, registry, skip));
      continue;
    }
    if (selection.kind === Kind.FIELD && (selection.alias?.value ?? selection.name.value) === skip) continue;
    const field = selection.kind === Kind.FIELD ? parent.getFields()[selection.name.value] : undefined;
    if (!field || selection.kind !== Kind.FIELD) throw new Error("OpenAPI: a selection it cannot describe");
    properties[selection.alias?.value ?? field.name] = described(
      outputSchema(field.type, selection.selectionSet, registry),
      field.description,
    );
  }
  return properties;
}
