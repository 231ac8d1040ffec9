import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
  validate,
} from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import type { GraphQLContext } from "../schema/context.js";
import { buildEnumPlan, type EnumPlan } from "./output.js";
import type { HttpMethod, RestRoute } from "./routes.js";

export interface CompiledRoute {
  route: RestRoute;
  method: HttpMethod;
  pattern: RegExp;
  paramNames: string[];
  document: DocumentNode;
  variableTypes: Map<string, GraphQLInputType>;
  enumPlan: EnumPlan;
  /** Runs the document, compiled once by graphql-jit: a fixed document need not be walked by graphql-js on every request. */
  execute(context: GraphQLContext, variables: Record<string, unknown>): Promise<ExecutionResult>;
}

/**
 * Parses and validates a route's document once, at startup: a document that
 * does not fit the schema stops the server from starting, not a request.
 */
export function compileRoute(schema: GraphQLSchema, route: RestRoute): CompiledRoute {
  const document = parse(route.document);
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new Error(`REST route ${route.operationId}: ${errors.map((error) => error.message).join("; ")}`);
  }
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const [operation] = operations;
  if (!operation || operations.length !== 1) {
    throw new Error(`REST route ${route.operationId}: the document must hold exactly one operation`);
  }
  const variableTypes = new Map<string, GraphQLInputType>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`REST route ${route.operationId}: bad variable type`);
    variableTypes.set(definition.variable.name.value, type);
  }
  const jitted = compileQuery(schema, document);
  if (!isCompiledQuery(jitted)) {
    throw new Error(
      `REST route ${route.operationId}: ${jitted.errors?.map((error) => error.message).join("; ")}`,
    );
  }
  const paramNames: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    paramNames.push(name);
    return "([^/]+)";
  });
  return {
    route,
    method: route.method,
    pattern: new RegExp(`^${source}$`),
    paramNames,
    document,
    variableTypes,
    enumPlan: buildEnumPlan(schema, operation),
    execute: async (context, variables) => jitted.query(undefined, context, variables),
  };
}
