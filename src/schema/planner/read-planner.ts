// Planned reads: a fixed document over the schema's root reads (a list or
// a record of the buyer's) planned once into one SQL statement and writers
// of its answer's JSON text, straight from the rows. What each field reads
// comes from the schema's own metadata: plugin-prisma's model of each type,
// the column each exposed field names, each relation's join, and, for fields
// with their own resolvers, what they declare they read (read-metadata.ts).
// Root fields hand over the condition and page their resolvers use, each
// condition with its SQL (src/schema/conditions.ts). A document with a field none of this
// covers is not planned: it runs on normal execution, and `plan` says why.
// The selection's fields are planned in selection-walk.ts, each request's
// statement and answer in read-statements.ts.
import {
  type FieldNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  Kind,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from "graphql";
import type { DataModel } from "../../db/data-model.js";
import { DomainError } from "../../domain/errors.js";
import { resolverArguments } from "../global-ids.js";
import {
  executedReadOf,
  nodeReadOf,
  nodesReadOf,
  recordReadOf,
  rootListOf,
  viewerReadOf,
} from "../read-metadata.js";
import { coercedVariables } from "../variable-values.js";
import { planNodeRead, planNodesRead } from "./node-read.js";
import {
  namedQuery,
  type PlannedRead,
  planRecordRead,
  planRootList,
  type QueryRows,
} from "./read-statements.js";
import { planRecordBatch, type RecordBatchRead } from "./record-batch.js";
import type { FieldArguments } from "./request-arguments.js";
import { PlanContext } from "./selection-walk.js";
import { planViewerRead } from "./viewer-read.js";
import { type OutputSpelling, PlanError, type PlanRefusal } from "./writers.js";

export type { PlannedRead, QueryRows, ReadOutcome } from "./read-statements.js";
export type { RecordBatchRead } from "./record-batch.js";
export type { OutputSpelling, PlanRefusal } from "./writers.js";
export { ArgumentsRefusedError } from "./writers.js";

/** Why an operation is not planned: a code from a fixed list, and words for the startup log. */
export type PlanRefused = { reason: string; refusal: PlanRefusal };

export type ReadPlan = { planned: PlannedRead } | PlanRefused;

export type RecordBatchPlan = { planned: RecordBatchRead } | PlanRefused;

export interface ReadPlanner {
  /** The read of an operation's one root field. */
  plan(operation: OperationDefinitionNode, spelling: OutputSpelling): ReadPlan;
  /** A document reading one record by `$id`, planned to read many records by id in one statement. */
  planRecordBatch(operation: OperationDefinitionNode, spelling: OutputSpelling): RecordBatchPlan;
}

export function createReadPlanner(options: {
  schema: GraphQLSchema;
  dataModel: DataModel;
  query: QueryRows;
}): ReadPlanner {
  const { schema, dataModel } = options;
  const query = namedQuery(options.query);
  return {
    plan(operation, spelling) {
      return planned(() => {
        const { field, fieldNode, plan, argumentsOf, fieldArguments } = rootOf(operation, spelling);
        const list = rootListOf(field.extensions);
        const record = recordReadOf(field.extensions);
        const node = nodeReadOf(field.extensions);
        if (node)
          return planNodeRead(
            schema,
            () => new PlanContext(dataModel, spelling, fieldArguments),
            node,
            fieldNode,
            argumentsOf,
            query,
          );
        const nodes = nodesReadOf(field.extensions);
        if (nodes)
          return planNodesRead(
            schema,
            () => new PlanContext(dataModel, spelling, fieldArguments),
            nodes,
            fieldNode,
            argumentsOf,
            query,
          );
        const viewer = viewerReadOf(field.extensions);
        if (viewer)
          return planViewerRead(
            () => new PlanContext(dataModel, spelling, fieldArguments),
            viewer,
            field,
            fieldNode,
            query,
          );
        if (list) return planRootList(plan, list, field, fieldNode, argumentsOf, query);
        if (record) return planRecordRead(plan, record, field, fieldNode, argumentsOf, query);
        const executed = executedReadOf(field.extensions);
        throw new PlanError(
          executed
            ? `Query.${field.name} is executed: ${executed.because}`
            : `Query.${field.name} declares no planned read`,
          "root_field",
        );
      });
    },
    planRecordBatch(operation, spelling) {
      return planned(() => {
        const { field, fieldNode, plan, argumentsOf } = rootOf(operation, spelling);
        const record = recordReadOf(field.extensions);
        if (!record) throw new PlanError(`Query.${field.name} declares no planned read of one record`);
        return planRecordBatch(plan, record, operation, field, fieldNode, argumentsOf, query);
      });
    },
  };

  /** The operation's one root field, and what planning it starts from. */
  function rootOf(operation: OperationDefinitionNode, spelling: OutputSpelling) {
    const root = schema.getQueryType();
    if (operation.operation !== "query" || !root) throw new PlanError("it is not a query", "operation");
    const [fieldNode, ...more] = operation.selectionSet.selections;
    // A GraphQL document's root fields are planned one by one, its fragments and directives resolved before (graphql-read.ts).
    if (more.length > 0 || fieldNode?.kind !== Kind.FIELD)
      throw new Error("a read is planned for an operation of exactly one root field");
    if (fieldNode.directives?.length) throw new PlanError("its root field has a directive");
    const field = root.getFields()[fieldNode.name.value];
    if (!field) throw new PlanError(`Query.${fieldNode.name.value} is not planned`, "introspection");
    const fieldArguments: FieldArguments = (parent, nested, node, variables) =>
      readArguments(variablesOf(schema, operation, variables), parent, nested, node);
    const argumentsOf = (variables: Readonly<Record<string, unknown>>) =>
      fieldArguments("Query", field, fieldNode, variables);
    return {
      field,
      fieldNode,
      plan: new PlanContext(dataModel, spelling, fieldArguments),
      argumentsOf,
      fieldArguments,
    };
  }
}

/** What `make` planned, or why it could not be planned. */
function planned<Read>(make: () => Read): { planned: Read } | PlanRefused {
  try {
    return { planned: make() };
  } catch (error) {
    if (error instanceof PlanError) return { reason: error.message, refusal: error.refusal };
    throw error;
  }
}

const NO_DEFINITIONS: readonly VariableDefinitionNode[] = [];

/** A request's variables coerced by the operation's definitions; null when execution refuses them. */
function variablesOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> | null {
  return coercedVariables(schema, operation.variableDefinitions ?? NO_DEFINITIONS, variables).coerced ?? null;
}

/** A field's arguments (of the type `parent`) as its resolver receives them; null when execution would refuse them. */
function readArguments(
  coerced: Record<string, unknown> | null,
  parent: string,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
): Record<string, unknown> | null {
  if (coerced === null) return null;
  try {
    return resolverArguments(parent, field.name, getArgumentValues(field, node, coerced));
  } catch (error) {
    if (error instanceof GraphQLError || error instanceof DomainError) return null;
    throw error;
  }
}
