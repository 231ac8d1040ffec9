import {
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { RestRoute } from "../routes.js";
import { leafSchema } from "./leaf-schema.js";
import { described, nullable, type SchemaRegistry } from "./schema-registry.js";
import type { JsonSchema } from "./types.js";

// The response body is whatever `route.body(data)` makes of the operation's
// data, and that function is code, not a description. So the generator runs it
// once on stand-in data built from the selection, each stand-in remembering the
// field it stands for, and reads the body's schema off the result: lists that
// return bare nodes, and createBuyerProduct's merged object, need no hint.

type Shape =
  | { kind: "leaf"; schema: JsonSchema; nullable: boolean; description: string | null }
  | { kind: "list"; nullable: boolean; description: string | null }
  | { kind: "object"; type: GraphQLObjectType; nullable: boolean; description: string | null };

export function responseSchema(
  schema: GraphQLSchema,
  route: RestRoute,
  operation: OperationDefinitionNode,
  registry: SchemaRegistry,
): JsonSchema {
  const shapes = new WeakMap<object, Shape>();
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`OpenAPI: the schema has no ${operation.operation} type`);

  function standIn(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    description: string | null,
  ) {
    const isNullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    let value: object;
    let shape: Shape;
    if (isListType(inner)) {
      value = [standIn(inner.ofType, selectionSet, null)];
      shape = { kind: "list", nullable: isNullable, description };
    } else if (isObjectType(inner)) {
      if (!selectionSet)
        throw new Error(`OpenAPI: ${route.operationId} selects ${inner.name} without fields`);
      value = standInObject(inner, selectionSet);
      shape = { kind: "object", type: inner, nullable: isNullable, description };
    } else if (isScalarType(inner) || isEnumType(inner)) {
      value = Object.freeze({});
      shape = { kind: "leaf", schema: leafSchema(inner, "output"), nullable: isNullable, description };
    } else {
      throw new Error(
        `OpenAPI: ${route.operationId} selects ${inner.name}; interfaces and unions are not supported`,
      );
    }
    shapes.set(value, shape);
    return value;
  }

  function standInObject(parent: GraphQLObjectType, selectionSet: SelectionSetNode): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        Object.assign(data, standInObject(parent, selection.selectionSet));
        continue;
      }
      const field = selection.kind === Kind.FIELD ? parent.getFields()[selection.name.value] : undefined;
      if (!field || selection.kind !== Kind.FIELD) {
        throw new Error(`OpenAPI: ${route.operationId} uses a selection the generator cannot describe`);
      }
      data[selection.alias?.value ?? field.name] = standIn(
        field.type,
        selection.selectionSet,
        field.description ?? null,
      );
    }
    return data;
  }

  /** `top`: the body itself; `item`: an element of a list the body made. Neither is a field to describe. */
  function describe(value: unknown, path: string, place: "top" | "item" | "field" = "field"): JsonSchema {
    if (typeof value !== "object" || value === null) {
      throw new Error(
        `OpenAPI: ${route.operationId}'s body() puts a value at ${path} that does not come from the selection`,
      );
    }
    const shape = shapes.get(value);
    if (!shape) {
      if (!Array.isArray(value)) {
        const object = objectSchema(value as Record<string, unknown>, path);
        return place === "top" ? registry.ref(`${pascalCase(route.operationId)}Response`, object) : object;
      }
      if (value.length !== 1)
        throw new Error(`OpenAPI: ${route.operationId}'s body() changes a list at ${path}`);
      return { type: "array", items: describe(value[0], `${path}[]`, "item") };
    }
    let schema: JsonSchema;
    if (shape.kind === "leaf") schema = shape.schema;
    else if (shape.kind === "list")
      schema = { type: "array", items: describe((value as unknown[])[0], `${path}[]`) };
    else {
      const object = objectSchema(value as Record<string, unknown>, path);
      schema = registry.ref(shape.type.name, described(object, shape.type.description));
    }
    if (shape.nullable) schema = nullable(schema);
    return place === "field" ? described(schema, shape.description) : schema;
  }

  /** Every selected field is present in a GraphQL result, null or not: all are required. */
  function objectSchema(record: Record<string, unknown>, path: string): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(record)) properties[key] = describe(value, `${path}.${key}`);
    return { type: "object", properties, required: Object.keys(properties) };
  }

  const data = standInObject(root, operation.selectionSet);
  let body: unknown;
  try {
    body = route.body(data);
  } catch (error) {
    throw new Error(`OpenAPI: ${route.operationId}'s body() cannot be traced on stand-in data`, {
      cause: error,
    });
  }
  return describe(body, "body", "top");
}

export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
