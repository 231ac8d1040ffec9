import { isDeepStrictEqual } from "node:util";
import type { JsonSchema } from "./types.js";

/**
 * Named schemas under `components.schemas`. A name is given once per distinct
 * schema: two routes selecting the same fields of `Order` share one `Order`,
 * a different selection of it becomes `Order2` rather than silently merging.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(name: string, schema: JsonSchema): JsonSchema {
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
export function nullable(schema: JsonSchema): JsonSchema {
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
export function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}
