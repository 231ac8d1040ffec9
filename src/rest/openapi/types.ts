import type { FieldError } from "../../http/problem.js";

// The subset of OpenAPI 3.1 (and its JSON Schema 2020-12 dialect) that the
// generator writes; typed so that a misspelt member fails to compile.

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  format?: string;
  pattern?: string;
  description?: string;
  enum?: (string | number | null)[];
  const?: string | number | boolean;
  default?: string | number | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/** Any JSON value, for examples. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Example {
  summary?: string;
  value: JsonValue;
}

export interface MediaType {
  schema: JsonSchema;
  examples: Record<string, Example>;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  description: string;
  required?: boolean;
  schema: JsonSchema;
  style?: "form" | "simple";
  explode?: boolean;
  example?: JsonValue;
}

export interface RequestBody {
  required: boolean;
  description?: string;
  content: Record<string, MediaType>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
}

export type PathItem = Partial<Record<"get" | "post" | "patch" | "delete", Operation>>;

export interface SecurityScheme {
  type: "apiKey";
  in: "header";
  name: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}

/**
 * What the GraphQL type of a body field cannot say: limits checked by the
 * resolvers, and nullable fields where null means "clear it" rather than
 * being refused.
 */
export type BodyFieldHint = Pick<
  JsonSchema,
  "format" | "minimum" | "minItems" | "maxItems" | "uniqueItems" | "minLength"
> & { acceptsNull?: true };

/** docs/decisions.md §2 "Statuses and codes": every `code` a REST problem can carry. */
export type ProblemCode =
  | "invalid_json"
  | "unauthenticated"
  | "not_found"
  | "method_not_allowed"
  | "invalid_transition"
  | "already_exists"
  | "idempotency_request_in_progress"
  | "payload_too_large"
  | "unsupported_media_type"
  | "validation_failed"
  | "idempotency_key_reused"
  | "rate_limited"
  | "internal"
  | "overloaded";

export interface ProblemExample {
  detail: string;
  errors?: FieldError[];
  allowed_statuses?: string[];
}
