// A document sent to /graphql, answered by a planned read: the planner's
// rows and writers with GraphQL's own spelling (enum values by name,
// decimals as strings, as the Decimal scalar writes them), and the JSON text
// of the whole `data` written around them in the selection's order.
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import type { GraphQLContext } from "../context.js";
import { rootListOf } from "../read-metadata.js";
import { type ConditionValues, collectedOperation } from "./collected-selection.js";
import { connectionWriter } from "./connection-writer.js";
import type { ReadOutcome, ReadPlanner } from "./read-planner.js";
import { fieldsOf } from "./selection-walk.js";
import { type OutputSpelling, PlanError, type PlanRefusal, RowValueError } from "./writers.js";

/** Values as GraphQL execution serializes them: an enum by its name, a Decimal as a string of its digits. */
export const GRAPHQL_SPELLING: OutputSpelling = {
  enumValue: (_type, value) => JSON.stringify(value.name),
  decimal: (digits) => `"${digits}"`,
};

export interface PlannedGraphQLRead {
  /**
   * The read of the operation's `data` for one request, as JSON text, or
   * null when the request is to be executed (arguments execution refuses,
   * no viewer). Deciding sends no statement.
   */
  prepare(
    variables: Readonly<Record<string, unknown>>,
    context: GraphQLContext,
  ): (() => Promise<string>) | null;
}

/**
 * The planned read of an operation of `document`, its fragments and
 * `@skip`/`@include` resolved for `conditions` (collected-selection.ts), or
 * why it runs on normal execution. Each root field is planned on its own,
 * and `data` is their JSON texts in the order execution writes the keys.
 */
export function planGraphQLRead(
  planner: ReadPlanner,
  schema: GraphQLSchema,
  document: DocumentNode,
  selected: OperationDefinitionNode,
  conditions: ConditionValues,
): { planned: PlannedGraphQLRead } | { reason: string; refusal: PlanRefusal } {
  try {
    const operation = collectedOperation(schema, document, selected, conditions);
    const query = schema.getQueryType();
    if (operation.operation !== "query" || !query) throw new PlanError("it is not a query", "operation");
    const roots = fieldsOf(operation.selectionSet).map((root, index) => ({
      prefix: `${index === 0 ? "" : ","}${keyOf(root)}:`,
      read: rootRead(planner, operation, query, root),
    }));
    return { planned: plannedOf(roots) };
  } catch (error) {
    if (error instanceof PlanError) return { reason: error.message, refusal: error.refusal };
    throw error;
  }
}

/** The read of one root field's value as JSON text, for a request (null: it is executed). */
type RootRead = (
  variables: Readonly<Record<string, unknown>>,
  context: GraphQLContext,
) => (() => Promise<string>) | null;

/** The read of `root`: `__typename` as a constant, any other field as the planner's read of it alone. */
function rootRead(
  planner: ReadPlanner,
  operation: OperationDefinitionNode,
  query: GraphQLObjectType,
  root: FieldNode,
): RootRead {
  if (root.name.value === "__typename") {
    const name = JSON.stringify(query.name);
    return () => async () => name;
  }
  const field = query.getFields()[root.name.value];
  if (!field) throw new PlanError(`Query.${root.name.value} is not planned`, "introspection");
  const alone: OperationDefinitionNode = {
    ...operation,
    selectionSet: { kind: Kind.SELECTION_SET, selections: [root] },
  };
  const plan = planner.plan(alone, GRAPHQL_SPELLING);
  if ("reason" in plan) throw new PlanError(plan.reason, plan.refusal);
  const write = valueWriter(root, field.type, rootListOf(field.extensions) !== undefined);
  return (variables, context) => {
    const prepared = plan.planned.prepare(variables, context);
    return prepared && (async () => write(await prepared()));
  };
}

/**
 * `data` from its root fields' reads, run side by side as execution runs a
 * query's root fields: null for a request any of them leaves to execution,
 * or without a viewer (execution words that, whatever the selection).
 */
function plannedOf(roots: readonly { prefix: string; read: RootRead }[]): PlannedGraphQLRead {
  return {
    prepare(variables, context) {
      if (!context.viewer) return null;
      const reads: (() => Promise<string>)[] = [];
      for (const { read } of roots) {
        const prepared = read(variables, context);
        if (!prepared) return null;
        reads.push(prepared);
      }
      return async () => {
        const texts = await Promise.all(reads.map((read) => read()));
        return `{${texts.map((text, index) => `${roots[index]?.prefix ?? ""}${text}`).join("")}}`;
      };
    },
  };
}

const keyOf = (node: FieldNode) => JSON.stringify(node.alias?.value ?? node.name.value);

/** The writer of a root field's value from a read's outcome, for the root field `root` of type `type`. */
function valueWriter(
  root: FieldNode,
  fieldType: GraphQLOutputType,
  isConnection: boolean,
): (outcome: ReadOutcome) => string {
  const type = getNamedType(fieldType);
  const nullable = !isNonNullType(fieldType);
  if (!root.selectionSet) throw new PlanError(`${type.name} is not an object with a selection`);
  if (isConnection && !isObjectType(type)) throw new PlanError(`${type.name} is not a connection`);
  const connection = isConnection && isObjectType(type) ? connectionWriter(root, type) : null;
  return (outcome) => {
    if (outcome.kind === "record") {
      // Execution answers a required field without its record with an error.
      if (outcome.json === null && !nullable) throw new RowValueError(`${type.name} is required and absent`);
      return outcome.json ?? "null";
    }
    if (outcome.kind === "list") return outcome.json;
    if (!connection) throw new PlanError(`${type.name} is not a connection`);
    return connection(outcome);
  };
}
