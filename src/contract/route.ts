import type { oas31 } from "openapi3-ts";
import type { ProblemCode, ProblemExample } from "./problems.js";

export const API_PREFIX = "/api/public/buyer/v1";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Where a REST input goes: a GraphQL variable, then input fields in the
 * contract's spelling (`filter.order_status`). The adapter converts names and
 * enum values to GraphQL's using the variable's type.
 */
export type VariablePath = string;

/** A `{name}` path segment: a UUID, fed to the variable `name` or else to the field `input.name`. */
export interface PathParameter {
  to?: VariablePath;
  /** Said after the GraphQL description of what it feeds. */
  description?: string;
  example: string;
}

export interface QueryParameter {
  name: string;
  to: VariablePath;
  /** Said after the GraphQL description of what it feeds. */
  description?: string;
  /** Limits the GraphQL type cannot carry. */
  schema?: Pick<JsonSchema, "minimum" | "maximum" | "default">;
  example: string | number | string[];
}

/**
 * One v1 endpoint, as data: the adapter, the OpenAPI generator and the metrics
 * read it. What the document says is not repeated: the response is its one
 * root field (a connection's nodes as a bare array, next page in `Link`; else
 * the object, null there being 404), and the success status is 201 for POST,
 * 204 for no body, else 200.
 */
export interface RestRoute {
  operationId: string;
  method: HttpMethod;
  /** Relative to API_PREFIX; `{name}` segments are UUID path parameters. */
  path: string;
  /** One GraphQL operation, validated against the schema at startup; unaliased fields are answered in snake_case. */
  document: string;
  pathParameters?: Record<string, PathParameter>;
  query?: QueryParameter[];
  /** The JSON body becomes this variable (`input` unless said); path parameters may fill some of its fields. */
  body?: { to?: VariablePath; fields?: Record<string, BodyFieldHint>; example: JsonValue };
  /** `spread` lifts that field's own fields into the object (`{...result.spread, ...rest}`); `empty`: no body. */
  response?: { spread: string } | "empty";
  success: { status?: number; description: string; example?: JsonValue };
  summary: string;
  tag: string;
  /** What the operation does, in REST terms (markdown); field descriptions come from the schema. */
  description: string;
  /** Problems this operation itself can return, with when, beyond those every request of its method and path can. */
  problems?: Partial<Record<ProblemCode, string>>;
  /**
   * Whether a GET shows only data the change log versions (the default), so
   * that it carries an ETag, answers 304 and is cached. False for data that
   * changes without a log entry.
   */
  versioned?: false;
  problemExamples?: Partial<Record<ProblemCode, ProblemExample>>;
}

/** Any JSON value, for examples. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What the GraphQL type of a body field cannot say: limits checked by the
 * resolvers, and nullable fields where null means "clear it" rather than
 * being refused.
 */
export type BodyFieldHint = Pick<
  JsonSchema,
  "format" | "minimum" | "minItems" | "maxItems" | "uniqueItems" | "minLength"
> & { acceptsNull?: true };

/**
 * OpenAPI 3.1's schema object (openapi3-ts), with nested schemas always
 * schemas (`$ref` is one of their members), so readers of the document need no casts.
 */
export interface JsonSchema extends Omit<oas31.SchemaObject, "properties" | "items" | "allOf" | "anyOf"> {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/**
 * A GET of data the change log versions (docs/design/decisions.md §9): it carries an
 * ETag and Cache-Control, answers If-None-Match with 304, and is cached.
 */
export function isVersionedRead(route: RestRoute): boolean {
  return route.method === "GET" && route.versioned !== false;
}
