import type { oas31 } from "openapi3-ts";

import type { JsonSchema } from "../contract/route.js";

// openapi3-ts's OpenAPI 3.1 objects, narrowed to what the generator writes:
// schemas are the contract's `JsonSchema`, and the members it always writes
// are required, so readers of the document need no casts.

export type { JsonSchema };

export type Reference = oas31.ReferenceObject;

export interface Header extends Omit<oas31.HeaderObject, "$ref"> {
  schema: JsonSchema;
}

export interface Parameter extends oas31.ParameterObject {
  schema: JsonSchema;
}

export interface MediaType extends oas31.MediaTypeObject {
  schema: JsonSchema;
  examples: Record<string, oas31.ExampleObject>;
}

export interface Response extends oas31.ResponseObject {
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Operation extends oas31.OperationObject {
  operationId: string;
  parameters: (Parameter | Reference)[];
  requestBody?: oas31.RequestBodyObject & { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

export type PathItem = Partial<Record<"get" | "post" | "patch" | "delete", Operation>>;

export interface OpenApiDocument extends oas31.OpenAPIObject {
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, oas31.SecuritySchemeObject>;
  };
}
