import {
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import type { CompiledRoute } from "../compiled-route.js";
import { snakeCase } from "../contract-names.js";
import type { RouteInput } from "../routes.js";

// `route.variables()` decides which part of a request feeds which GraphQL
// variable. The generator asks it rather than restating it: it calls the
// function with one marked input at a time and looks where the mark lands.

/** Where a request value ends up: a variable, then input fields in REST spelling. */
export interface InputLocation {
  path: string[];
  type: GraphQLInputType;
  description: string | null;
}

export interface RouteInputs {
  /** The variable the JSON body becomes, and the body fields the path supplies instead. */
  body: { type: GraphQLInputObjectType; description: string | null; filledFromPath: Set<string> } | null;
  pathParameters: Map<string, InputLocation>;
  /** Every query parameter name the route reads. */
  queryNamesRead: Set<string>;
  /** Where a query parameter goes, given example values for it. */
  locateQueryParameter(name: string, values: string[]): InputLocation;
}

const BODY_MARK = "__openapi_body_mark__";

class RecordingSearchParams extends URLSearchParams {
  readonly names = new Set<string>();
  override get(name: string): string | null {
    this.names.add(name);
    return super.get(name);
  }
  override getAll(name: string): string[] {
    this.names.add(name);
    return super.getAll(name);
  }
  override has(name: string): boolean {
    this.names.add(name);
    return super.has(name);
  }
}

export function routeInputs(schema: GraphQLSchema, compiled: CompiledRoute): RouteInputs {
  const { route } = compiled;
  const operation = compiled.document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`OpenAPI: ${route.operationId} has no operation`);
  const where = (path: string[]) => locationOf(schema, compiled, operation, path);

  const pathMarks = Object.fromEntries(compiled.paramNames.map((name) => [name, `__openapi_path_${name}__`]));
  const call = (input: Partial<RouteInput>) =>
    route.variables({ params: pathMarks, query: new URLSearchParams(), body: {}, ...input });

  const marked = call({});
  const pathParameters = new Map<string, InputLocation>();
  for (const [name, mark] of Object.entries(pathMarks)) {
    const path = findPath(marked, (value) => value === mark);
    if (!path) throw new Error(`OpenAPI: ${route.operationId} does not use its path parameter ${name}`);
    pathParameters.set(name, where(path));
  }

  let body: RouteInputs["body"] = null;
  if (route.method !== "GET") {
    const path = findPath(
      call({ body: { [BODY_MARK]: true } }),
      (value) => isRecord(value) && BODY_MARK in value,
    );
    if (path) {
      const location = where(path);
      const type = isNonNullType(location.type) ? location.type.ofType : location.type;
      if (!isInputObjectType(type))
        throw new Error(`OpenAPI: ${route.operationId}'s body is not an input object`);
      const filledFromPath = new Set(
        [...pathParameters.values()]
          .filter(
            (parameter) =>
              parameter.path.length === path.length + 1 &&
              path.every((segment, index) => parameter.path[index] === segment),
          )
          .map((parameter) => parameter.path.at(-1) ?? ""),
      );
      body = { type, description: location.description, filledFromPath };
    }
  }

  const recording = new RecordingSearchParams();
  call({ query: recording });

  return {
    body,
    pathParameters,
    queryNamesRead: recording.names,
    locateQueryParameter(name, values) {
      const query = new URLSearchParams();
      for (const value of values) query.append(name, value);
      const variables = call({ query });
      const marks = new Set(Object.values(pathMarks));
      const found = definedPaths(variables).filter((path) => {
        const value = valueAt(variables, path);
        return typeof value !== "string" || !marks.has(value);
      });
      const [path] = found;
      if (!path || found.length !== 1) {
        throw new Error(
          `OpenAPI: cannot tell which variable the query parameter ${name} of ${route.operationId} feeds`,
        );
      }
      return where(path);
    },
  };
}

/** The GraphQL type and description at a variable path in REST spelling. */
function locationOf(
  schema: GraphQLSchema,
  compiled: CompiledRoute,
  operation: OperationDefinitionNode,
  path: string[],
): InputLocation {
  const [variable = "", ...fields] = path;
  const variableType = compiled.variableTypes.get(variable);
  if (!variableType) throw new Error(`OpenAPI: ${compiled.route.operationId} has no variable ${variable}`);
  let type: GraphQLInputType = variableType;
  let description = argumentDescription(schema, operation, variable);
  for (const segment of fields) {
    const object: GraphQLInputType = isNonNullType(type) ? type.ofType : type;
    const field: GraphQLInputField | undefined = isInputObjectType(object)
      ? Object.values(object.getFields()).find((candidate) => snakeCase(candidate.name) === segment)
      : undefined;
    if (!field)
      throw new Error(
        `OpenAPI: ${compiled.route.operationId} sets ${path.join(".")}, which is no input field`,
      );
    type = field.type;
    description = field.description ?? null;
  }
  return { path, type, description };
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

function findPath(
  value: unknown,
  matches: (value: unknown) => boolean,
  path: string[] = [],
): string[] | null {
  if (matches(value)) return path;
  if (!isRecord(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findPath(child, matches, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Paths to every value that is neither null nor undefined; arrays count as values. */
function definedPaths(value: unknown, path: string[] = []): string[][] {
  if (value === null || value === undefined) return [];
  if (!isRecord(value)) return [path];
  return Object.entries(value).flatMap(([key, child]) => definedPaths(child, [...path, key]));
}

function valueAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((current, key) => (isRecord(current) ? current[key] : undefined), value);
}
