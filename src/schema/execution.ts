import { normalizedExecutor } from "@graphql-tools/executor";
import { isAsyncIterable } from "@graphql-tools/utils";
import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import type { GraphQLContext } from "./context.js";

/**
 * Runs a query or mutation with the executor Yoga runs every GraphQL request
 * with, so that a REST route, an event's record and a GraphQL request are
 * executed alike: the REST routes and event records that no plan answers.
 */
export async function executeOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  context: GraphQLContext,
  variables: Record<string, unknown>,
): Promise<ExecutionResult> {
  const result = await normalizedExecutor({
    schema,
    document,
    contextValue: context,
    variableValues: variables,
  });
  // Only a subscription, or @defer and @stream, answer a stream; no fixed document has them.
  if (isAsyncIterable(result)) throw new Error("a fixed document answered a stream");
  return result;
}
