import { type GraphQLEnumType, type GraphQLScalarType, isEnumType } from "graphql";
import { enumSpelling } from "../rest-spelling.js";
import type { JsonSchema } from "./types.js";

/** docs/decisions.md §3 "Requests and responses": every date-time written has milliseconds and a Z. */
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
  // Exact decimals are written as JSON numbers (docs/decisions.md §3 "Requests and responses").
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
