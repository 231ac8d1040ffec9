import {
  type ExecutionResult,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isInputType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  typeFromAST,
  validate,
} from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import type { GraphQLContext } from "../schema/context.js";
import { readQueryParameter } from "./query-parameters.js";
import { buildEnumPlan, snakeCase } from "./rest-spelling.js";
import type { RestRoute } from "./route.js";

/** Where a REST input lands: the variable, then input fields in REST spelling; its GraphQL type and description. */
export interface InputTarget {
  path: string[];
  type: GraphQLInputType;
  description: string | null;
}

/** A selected field, by response key, with what was selected beneath it. */
export interface SelectedField {
  field: GraphQLField<unknown, unknown>;
  selectionSet: SelectionSetNode | undefined;
}

export type CompiledRoute = ReturnType<typeof compileRoute>;

/**
 * Reads a route's table entry once, at startup, and checks it against the
 * schema: a document that does not validate, an input that feeds no variable
 * or field, or a response path the selection does not have stops the server
 * from starting, not a request.
 */
export function compileRoute(schema: GraphQLSchema, route: RestRoute) {
  const fail = (message: string): never => {
    throw new Error(`REST route ${route.operationId}: ${message}`);
  };
  const document = parse(route.document);
  const errors = validate(schema, document);
  if (errors.length > 0) fail(errors.map((error) => error.message).join("; "));
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const [operation] = operations;
  if (!operation || operations.length !== 1) return fail("the document must hold exactly one operation");

  const variableTypes = new Map<string, GraphQLInputType>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) return fail("bad variable type");
    variableTypes.set(definition.variable.name.value, type);
  }

  const target = (to: string): InputTarget => {
    const [variable = "", ...fields] = to.split(".");
    const variableType = variableTypes.get(variable);
    if (!variableType) return fail(`${to} names no variable of the document`);
    let type: GraphQLInputType = variableType;
    let description = argumentDescription(schema, operation, variable);
    for (const segment of fields) {
      const object = isNonNullType(type) ? type.ofType : type;
      const field = isInputObjectType(object)
        ? Object.values(object.getFields()).find((candidate) => snakeCase(candidate.name) === segment)
        : undefined;
      if (!field) return fail(`${to} is no input field`);
      type = field.type;
      description = field.description ?? null;
    }
    return { path: [variable, ...fields], type, description };
  };

  const paramNames: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    paramNames.push(name);
    return "([^/]+)";
  });
  const declared = Object.keys(route.pathParameters ?? {});
  if (declared.join() !== paramNames.join())
    fail(`the path parameters are ${paramNames.join()}, not ${declared}`);
  const pathTargets = new Map(
    Object.entries(route.pathParameters ?? {}).map(([name, parameter]) => {
      const found = target(parameter.to);
      const type = isNonNullType(found.type) ? found.type.ofType : found.type;
      if (!isScalarType(type) || type.name !== "UUID")
        fail(`the path parameter ${name} does not feed a UUID`);
      return [name, found];
    }),
  );
  const queryTargets = (route.query ?? []).map((parameter) => target(parameter.to));
  const bodyTarget = route.body ? target(route.body.to) : null;
  if (bodyTarget && !isInputObjectType(getNamedType(bodyTarget.type))) fail("the body feeds no input object");

  const argumentNames: Record<string, string> = {};
  const nameInErrors = (restName: string, found: InputTarget | undefined) => {
    if (found) argumentNames[found.path[0] ?? ""] = found.path.length === 1 ? restName : "";
  };
  for (const [name, found] of pathTargets) nameInErrors(name, found);
  for (const [index, parameter] of (route.query ?? []).entries())
    nameInErrors(parameter.name, queryTargets[index]);
  nameInErrors("", bodyTarget ?? undefined);

  const response = route.response;
  // The response paths the adapter reads must be selected: `responseBody` relies on them.
  const readPaths =
    response.kind === "empty"
      ? []
      : response.kind === "list"
        ? ["edges.node", "pageInfo.hasNextPage", "pageInfo.endCursor"].map((key) => `${response.at}.${key}`)
        : [response.spread === undefined ? response.at : `${response.at}.${response.spread}`];
  for (const path of readPaths) selectedAt(schema, operation, path, fail);

  const jitted = compileQuery(schema, document);
  if (!isCompiledQuery(jitted)) return fail(jitted.errors?.map((error) => error.message).join("; ") ?? "");

  return {
    route,
    pattern: new RegExp(`^${source}$`),
    paramNames,
    operation,
    variableTypes,
    pathTargets,
    queryTargets,
    bodyTarget,
    /** How a GraphQL argument path is named in REST errors (`first` → `limit`); input objects take no prefix. */
    argumentNames,
    enumPlan: buildEnumPlan(schema, operation),
    /** The variables, in the contract's spelling, that a request's path, query and body make. */
    variables(params: Record<string, string>, query: URLSearchParams, body: Record<string, unknown>) {
      const variables: Record<string, unknown> = {};
      if (bodyTarget) setAt(variables, bodyTarget.path, { ...body });
      for (const [index, parameter] of (route.query ?? []).entries()) {
        setAt(
          variables,
          queryTargets[index]?.path ?? [],
          readQueryParameter(query, parameter.name, parameter.form),
        );
      }
      for (const [name, found] of pathTargets) setAt(variables, found.path, params[name]);
      return variables;
    },
    /** The response body and, for lists, the cursor of the next page (null on the last); null when the object read is null. */
    responseBody(data: Record<string, unknown>): { body: unknown; nextCursor: string | null } | null {
      if (response.kind === "empty") return { body: undefined, nextCursor: null };
      const value = valueAt(data, response.at);
      if (response.kind === "list") {
        const edges = property(value, "edges");
        const pageInfo = property(value, "pageInfo");
        const cursor = property(pageInfo, "hasNextPage") === true ? property(pageInfo, "endCursor") : null;
        return {
          body: Array.isArray(edges) ? edges.map((edge) => property(edge, "node")) : [],
          nextCursor: typeof cursor === "string" ? cursor : null,
        };
      }
      if (value === null) return null;
      if (response.spread === undefined || !isRecord(value)) return { body: value, nextCursor: null };
      const { [response.spread]: inner, ...others } = value;
      return { body: { ...(isRecord(inner) ? inner : {}), ...others }, nextCursor: null };
    },
    /** Runs the document, compiled once by graphql-jit: a fixed document need not be walked by graphql-js on every request. */
    execute: async (context: GraphQLContext, variables: Record<string, unknown>): Promise<ExecutionResult> =>
      jitted.query(undefined, context, variables),
  };
}

/** The field selected at a dotted path of response keys, from the operation's root. */
export function selectedAt(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  at: string,
  fail: (message: string) => never,
): SelectedField {
  let parent = schema.getRootType(operation.operation);
  let selectionSet: SelectionSetNode | undefined = operation.selectionSet;
  let found: SelectedField | undefined;
  for (const key of at.split(".")) {
    found = parent ? selectedIn(parent, selectionSet, key) : undefined;
    if (!found) return fail(`the document selects nothing at ${at}`);
    const named = getNamedType(found.field.type);
    parent = isObjectType(named) ? named : null;
    selectionSet = found.selectionSet;
  }
  return found ?? fail(`the document selects nothing at ${at}`);
}

function selectedIn(
  parent: { getFields(): Record<string, GraphQLField<unknown, unknown>> },
  selectionSet: SelectionSetNode | undefined,
  key: string,
): SelectedField | undefined {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind !== Kind.FIELD || (selection.alias?.value ?? selection.name.value) !== key) continue;
    const field = parent.getFields()[selection.name.value];
    if (field) return { field, selectionSet: selection.selectionSet };
  }
  return undefined;
}

/** The description of the root field argument a variable is passed to. */
function argumentDescription(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variable: string,
): string | null {
  const root = schema.getRootType(operation.operation);
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const argument = selection.arguments?.find(
      (node) => node.value.kind === Kind.VARIABLE && node.value.name.value === variable,
    );
    if (!argument) continue;
    const definition = root
      ?.getFields()
      [selection.name.value]?.args.find((arg) => arg.name === argument.name.value);
    return definition?.description ?? null;
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function property(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function valueAt(value: unknown, at: string): unknown {
  return at.split(".").reduce(property, value);
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  const last = path.at(-1);
  if (last === undefined) return;
  let current = target;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (isRecord(next)) current = next;
    else {
      const created: Record<string, unknown> = {};
      current[key] = created;
      current = created;
    }
  }
  current[last] = value;
}
