// A document sent to /graphql, answered by a compiled read: the planner's
// rows and writers with GraphQL's own spelling (enum values by name,
// decimals as strings, as the Decimal scalar writes them), and the JSON text
// of the whole `data` written around them in the selection's order.
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import type { GraphQLContext } from "../context.js";
import type { PageInfoShape } from "../page-window.js";
import { rootListOf } from "../read-metadata.js";
import { type ConditionValues, collectedOperation } from "./collected-selection.js";
import type { CompiledRead, ReadOutcome, ReadPlanner } from "./read-planner.js";
import { fieldsOf } from "./selection-walk.js";
import { type OutputSpelling, PlanError, type PlanRefusal } from "./writers.js";

/** Values as GraphQL execution serializes them: an enum by its name, a Decimal as a string of its digits. */
export const GRAPHQL_SPELLING: OutputSpelling = {
  enumValue: (_type, value) => JSON.stringify(value.name),
  decimal: (digits) => `"${digits}"`,
};

export interface CompiledGraphQLRead {
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
 * The compiled read of an operation of `document`, its fragments and
 * `@skip`/`@include` resolved for `conditions` (collected-selection.ts), or
 * why it runs on normal execution.
 */
export function planGraphQLRead(
  planner: ReadPlanner,
  schema: GraphQLSchema,
  document: DocumentNode,
  selected: OperationDefinitionNode,
  conditions: ConditionValues,
): { compiled: CompiledGraphQLRead } | { reason: string; refusal: PlanRefusal } {
  let operation: OperationDefinitionNode;
  try {
    operation = collectedOperation(schema, document, selected, conditions);
  } catch (error) {
    if (error instanceof PlanError) return { reason: error.message, refusal: error.refusal };
    throw error;
  }
  const plan = planner.plan(operation, GRAPHQL_SPELLING);
  if ("reason" in plan) return plan;
  const [root] = operation.selectionSet.selections;
  const rootField =
    root?.kind === Kind.FIELD ? schema.getQueryType()?.getFields()[root.name.value] : undefined;
  if (root?.kind !== Kind.FIELD || !rootField)
    return { reason: "it selects no root field", refusal: "root_fields" };
  try {
    const write = dataWriter(
      root,
      getNamedType(rootField.type),
      rootListOf(rootField.extensions) !== undefined,
    );
    return { compiled: compiledWith(plan.compiled, write) };
  } catch (error) {
    if (error instanceof PlanError) return { reason: error.message, refusal: error.refusal };
    throw error;
  }
}

function compiledWith(read: CompiledRead, write: (outcome: ReadOutcome) => string): CompiledGraphQLRead {
  return {
    prepare(variables, context) {
      const prepared = read.prepare(variables, context);
      return prepared && (async () => write(await prepared()));
    },
  };
}

const keyOf = (node: FieldNode) => JSON.stringify(node.alias?.value ?? node.name.value);

/** The writer of `{"<root key>": …}` from a read's outcome, for the root field `root` of type `type`. */
function dataWriter(
  root: FieldNode,
  type: GraphQLNamedType,
  isConnection: boolean,
): (outcome: ReadOutcome) => string {
  const prefix = `{${keyOf(root)}:`;
  if (!root.selectionSet) throw new PlanError(`${type.name} is not an object with a selection`);
  if (isConnection && !isObjectType(type)) throw new PlanError(`${type.name} is not a connection`);
  const connection = isConnection && isObjectType(type) ? connectionWriter(root, type) : null;
  return (outcome) => {
    if (outcome.kind === "record") return `${prefix}${outcome.json ?? "null"}}`;
    if (!connection) throw new PlanError(`${type.name} is not a connection`);
    return `${prefix}${connection(outcome)}}`;
  };
}

/** A connection's fields in the selection's order: `edges { node }` around each node's text or `nodes` as a list of them, `pageInfo` and `totalCount`. */
function connectionWriter(
  root: FieldNode,
  connection: GraphQLObjectType,
): (page: Extract<ReadOutcome, { kind: "page" }>) => string {
  const parts = fieldsOf(root.selectionSet).map((field, index) => {
    const prefix = `${index === 0 ? "" : ","}${keyOf(field)}:`;
    if (field.name.value === "__typename") {
      const name = JSON.stringify(connection.name);
      return () => prefix + name;
    }
    if (field.name.value === "totalCount")
      return (page: Extract<ReadOutcome, { kind: "page" }>) => prefix + String(page.totalCount);
    if (field.name.value === "pageInfo") {
      const write = pageInfoWriter(field);
      return (page: Extract<ReadOutcome, { kind: "page" }>) => prefix + write(page.pageInfo);
    }
    // The planner compiles `edges { node }` or `nodes` beside `pageInfo` and `totalCount` (read-statements.ts).
    if (field.name.value === "nodes")
      return (page: Extract<ReadOutcome, { kind: "page" }>) => `${prefix}[${page.nodes.join(",")}]`;
    const [node] = fieldsOf(field.selectionSet);
    if (field.name.value !== "edges" || !node)
      throw new PlanError(`${connection.name}.${field.name.value} is not compiled`, "connection_field");
    const open = `{${keyOf(node)}:`;
    return (page: Extract<ReadOutcome, { kind: "page" }>) => {
      let out = `${prefix}[`;
      for (let position = 0; position < page.nodes.length; position += 1)
        out += `${position === 0 ? "" : ","}${open}${page.nodes[position]}}`;
      return `${out}]`;
    };
  });
  return (page) => {
    let out = "{";
    for (const part of parts) out += part(page);
    return `${out}}`;
  };
}

const PAGE_INFO_FIELDS: Readonly<Record<string, (info: PageInfoShape) => string>> = {
  hasNextPage: (info) => String(info.hasNextPage),
  hasPreviousPage: (info) => String(info.hasPreviousPage),
  startCursor: (info) => JSON.stringify(info.startCursor),
  endCursor: (info) => JSON.stringify(info.endCursor),
  __typename: () => `"PageInfo"`,
};

function pageInfoWriter(node: FieldNode): (info: PageInfoShape) => string {
  const parts = fieldsOf(node.selectionSet).map((field, index) => {
    const key = field.alias?.value ?? field.name.value;
    const write = PAGE_INFO_FIELDS[field.name.value];
    if (!write) throw new PlanError(`PageInfo.${field.name.value} is not compiled`);
    return { prefix: `${index === 0 ? "" : ","}${JSON.stringify(key)}:`, write };
  });
  return (info) => {
    let out = "{";
    for (const { prefix, write } of parts) out += prefix + write(info);
    return `${out}}`;
  };
}
