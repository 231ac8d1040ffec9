// A request's variables coerced to their operation's declared types, as
// execution coerces them, once per request: the error codes, the cost limit
// and the planned reads all read them.
import { type GraphQLSchema, getVariableValues, type VariableDefinitionNode } from "graphql";
import { keptIn } from "./kept-in.js";

/** The coerced values, or the errors of the values that do not fit their types. */
export type CoercedVariables = ReturnType<typeof getVariableValues>;

/** As many errors as a refusal of the variables reports. */
const MAX_ERRORS = 25;

const NO_VARIABLES: Readonly<Record<string, unknown>> = Object.freeze({});

const bySchema = new WeakMap<
  GraphQLSchema,
  WeakMap<readonly VariableDefinitionNode[], WeakMap<Readonly<Record<string, unknown>>, CoercedVariables>>
>();

/**
 * `variables` coerced by an operation's `definitions`, kept by the schema,
 * the definitions and the variables object (every plugin of one execution is
 * handed the same): exactly as long as they are. Readers must not change
 * what they are given.
 */
export function coercedVariables(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  variables: Readonly<Record<string, unknown>> | null | undefined,
): CoercedVariables {
  const values = variables ?? NO_VARIABLES;
  const byDefinitions = keptIn(bySchema, schema, () => new WeakMap());
  const byValues = keptIn(byDefinitions, definitions, () => new WeakMap());
  return keptIn(byValues, values, () =>
    getVariableValues(schema, definitions, values, { maxErrors: MAX_ERRORS }),
  );
}
