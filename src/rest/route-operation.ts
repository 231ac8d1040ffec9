import {
  type ExecutionResult,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type SelectionSetNode,
  typeFromAST,
  validate,
  visit,
} from "graphql";
import { restDescription } from "../contract/descriptions.js";
import type { RestRoute } from "../contract/route.js";
import type { GraphQLContext } from "../schema/context.js";
import { executeOperation } from "../schema/execution.js";
import { type QueryForm, readQueryParameter } from "./query-parameters.js";
import { type EnumPlan, enumSpelling, snakeCase } from "./rest-spelling.js";

/** Where a REST input lands: the variable, then input fields in REST spelling; its GraphQL type and description. */
export interface InputTarget {
  path: string[];
  type: GraphQLInputType;
  description: string | null;
  /** For an id: the record types whose global IDs it takes besides UUIDs (`takesIdsOf`). */
  nodeTypes: readonly string[];
  /** What the field's type cannot say (`extensions.jsonSchema`): the values it takes, its limits. */
  jsonSchema: Readonly<Record<string, unknown>>;
}

/** A selected field with what is selected beneath it, by response key: the document's shape, walked once. */
export interface Selected {
  field: GraphQLField<unknown, unknown>;
  /** The name of the type the field belongs to. */
  parentType: string;
  children: Map<string, Selected>;
}

export type RouteOperation = ReturnType<typeof readRouteOperation>;

/**
 * Reads a route's table entry once, at startup, and checks it against the
 * schema: a document that does not validate, an input that feeds no variable
 * or field, or a response the selection does not have stops the server from
 * starting, not a request. Fields without an alias are answered under their
 * snake_case name (`orderStatus` → `order_status`), the contract's spelling.
 */
export function readRouteOperation(schema: GraphQLSchema, route: RestRoute) {
  const fail: Fail = (message) => {
    throw new Error(`REST route ${route.operationId}: ${message}`);
  };
  const read = readDocument(schema, route, fail);
  const { document, operation, selections } = read;
  const { variableTypes, bodyTarget, paramNames, pathTargets, query, argumentNames } = readInputs(
    schema,
    route,
    read,
    fail,
  );
  const response = readResponse(route, read, fail);

  return {
    route,
    /** What each path parameter names, for its 404: `/webhook_endpoints/{id}` → "Webhook endpoint". */
    recordNames: Object.fromEntries(paramNames.map((name) => [name, recordNameBefore(route.path, name)])),
    /** What a single read's 404 says it did not find: the record of its last path parameter. */
    readRecordName: recordNameBefore(route.path, paramNames.at(-1) ?? ""),
    /** The path parameters, in the path's order: the router hands their values over in the same order. */
    paramNames,
    operation,
    selections,
    response,
    variableTypes,
    pathTargets,
    query,
    bodyTarget,
    argumentNames,
    enumPlan: enumPlan(selections),
    /** The variables, in the contract's spelling, that a request's path, query and body make. */
    variables(params: Record<string, string>, search: URLSearchParams, body: Record<string, unknown>) {
      const variables: Record<string, unknown> = {};
      if (bodyTarget) setAt(variables, bodyTarget.path, { ...body });
      for (const { name, form, target } of query)
        setAt(variables, target.path, readQueryParameter(search, name, form));
      for (const [name, found] of pathTargets) setAt(variables, found.path, params[name]);
      return variables;
    },
    /** The response body and, for lists, the cursor of the next page (null on the last); null when the object read is null. */
    responseBody: (data: Record<string, unknown>) => responseBody(response, data),
    /** Runs the document as GraphQL requests are run. */
    execute: (context: GraphQLContext, variables: Record<string, unknown>): Promise<ExecutionResult> =>
      executeOperation(schema, document, context, variables),
  };
}

type Fail = (message: string) => never;

/** The route's document with snake_case aliases, checked: one operation, selecting one root field (`at`). */
function readDocument(schema: GraphQLSchema, route: RestRoute, fail: Fail) {
  const document = visit(parse(route.document), {
    Field: (node) =>
      node.alias || snakeCase(node.name.value) === node.name.value
        ? undefined
        : { ...node, alias: { kind: Kind.NAME, value: snakeCase(node.name.value) } },
  });
  const errors = validate(schema, document);
  if (errors.length > 0) fail(errors.map((error) => error.message).join("; "));
  const [operation, ...others] = document.definitions;
  if (operation?.kind !== Kind.OPERATION_DEFINITION || others.length > 0)
    return fail("the document must hold exactly one operation");
  const root = schema.getRootType(operation.operation);
  if (!root) return fail(`the schema has no ${operation.operation} type`);
  const selections = selectionsOf(root, operation.selectionSet, fail);
  const [at, ...moreFields] = selections.keys();
  if (at === undefined || moreFields.length > 0) return fail("the document must select one root field");
  return { document, operation, root, selections, at };
}

type ReadDocument = ReturnType<typeof readDocument>;

/** Where the body, the path parameters and the query parameters land, and how REST errors name the arguments. */
function readInputs(schema: GraphQLSchema, route: RestRoute, read: ReadDocument, fail: Fail) {
  const variableTypes = new Map<string, GraphQLInputType>();
  for (const definition of read.operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) return fail("bad variable type");
    variableTypes.set(definition.variable.name.value, type);
  }
  const target = (to: string) => inputTarget(to, read, variableTypes, fail);
  const bodyTarget = route.body ? target(route.body.to ?? "input") : null;
  if (bodyTarget && !isInputObjectType(getNamedType(bodyTarget.type))) fail("the body feeds no input object");
  const paramNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "");
  for (const name of Object.keys(route.pathParameters ?? {}))
    if (!paramNames.includes(name)) fail(`the path has no parameter ${name}`);
  const pathTargets = new Map(
    paramNames.map((name) => {
      const to = route.pathParameters?.[name]?.to ?? (variableTypes.has(name) ? name : `input.${name}`);
      const found = target(to);
      if (getNamedType(found.type).name !== "UUID") fail(`the path parameter ${name} does not feed a UUID`);
      return [name, found];
    }),
  );
  const query = (route.query ?? []).map((parameter) => {
    const found = target(parameter.to);
    const type = isNonNullType(found.type) ? found.type.ofType : found.type;
    const form: QueryForm = isListType(type)
      ? "list"
      : getNamedType(type).name === "Int"
        ? "integer"
        : "text";
    if ((form === "list") !== Array.isArray(parameter.example))
      fail(`${parameter.name}: its example does not fit its type`);
    return { ...parameter, target: found, form };
  });

  // How a GraphQL argument is named in REST errors (`first` → `limit`); input objects take no prefix.
  const argumentNames: Record<string, string> = {};
  const named = (restName: string, { path }: InputTarget) => {
    argumentNames[path[0] ?? ""] = path.length === 1 ? restName : "";
  };
  for (const [name, found] of pathTargets) named(name, found);
  for (const parameter of query) named(parameter.name, parameter.target);
  if (bodyTarget) named("", bodyTarget);
  return { variableTypes, bodyTarget, paramNames, pathTargets, query, argumentNames };
}

/** Where `to` (a variable, then input fields in REST spelling) lands: its type, description and node types. */
function inputTarget(
  to: string,
  { operation, root, selections, at }: ReadDocument,
  variableTypes: ReadonlyMap<string, GraphQLInputType>,
  fail: Fail,
): InputTarget {
  const rootField = selections.get(at)?.field;
  const [variable = "", ...fields] = to.split(".");
  let type = variableTypes.get(variable) ?? fail(`${to} names no variable of the document`);
  const argument = operation.selectionSet.selections
    .flatMap((node) => (node.kind === Kind.FIELD ? (node.arguments ?? []) : []))
    .find((node) => node.value.kind === Kind.VARIABLE && node.value.name.value === variable);
  const rootArgument = rootField?.args.find((arg) => arg.name === argument?.name.value);
  let description = restDescription(
    `${root.name}.${rootField?.name}(${rootArgument?.name}:)`,
    rootArgument?.description,
  );
  let nodeTypes = nodeTypesOf(rootArgument?.extensions);
  let jsonSchema = jsonSchemaOf(rootArgument?.extensions);
  for (const segment of fields) {
    const object = isNonNullType(type) ? type.ofType : type;
    const field = isInputObjectType(object)
      ? Object.values(object.getFields()).find((candidate) => snakeCase(candidate.name) === segment)
      : undefined;
    if (!field) return fail(`${to} is no input field`);
    type = field.type;
    description = restDescription(`${object}.${field.name}`, field.description);
    nodeTypes = nodeTypesOf(field.extensions);
    jsonSchema = jsonSchemaOf(field.extensions);
  }
  return { path: [variable, ...fields], type, description, nodeTypes, jsonSchema };
}

function jsonSchemaOf(
  extensions: Readonly<Record<string, unknown>> | null | undefined,
): Readonly<Record<string, unknown>> {
  const schema = extensions?.jsonSchema;
  return typeof schema === "object" && schema !== null ? (schema as Record<string, unknown>) : {};
}

/** The response: a connection's nodes, or the root field's object, or nothing; checked against the selection. */
function readResponse(route: RestRoute, { selections, at }: ReadDocument, fail: Fail) {
  const empty = route.response === "empty";
  const spread = typeof route.response === "object" ? route.response.spread : undefined;
  const list = !empty && selectedAt(selections, `${at}.edges`) !== undefined;
  const readPaths = empty
    ? []
    : list
      ? [`${at}.edges.node`, `${at}.page_info.has_next_page`, `${at}.page_info.end_cursor`]
      : [spread === undefined ? at : `${at}.${spread}`];
  for (const path of readPaths)
    if (!selectedAt(selections, path)) fail(`the document selects nothing at ${path}`);
  const status = route.success.status ?? (empty ? 204 : route.method === "POST" ? 201 : 200);
  return { at, list, spread, empty, status };
}

function responseBody(
  { at, list, spread, empty }: ReturnType<typeof readResponse>,
  data: Record<string, unknown>,
): { body: unknown; nextCursor: string | null } | null {
  const value = data[at];
  if (empty) return { body: undefined, nextCursor: null };
  if (list) {
    const edges = property(value, "edges");
    const pageInfo = property(value, "page_info");
    const cursor = property(pageInfo, "has_next_page") === true ? property(pageInfo, "end_cursor") : null;
    return {
      body: Array.isArray(edges) ? edges.map((edge) => property(edge, "node")) : [],
      nextCursor: typeof cursor === "string" ? cursor : null,
    };
  }
  if (value === null) return null;
  if (spread === undefined || !isRecord(value)) return { body: value, nextCursor: null };
  const { [spread]: inner, ...others } = value;
  return { body: { ...(isRecord(inner) ? inner : {}), ...others }, nextCursor: null };
}

/** The record a path parameter names, from the collection before it: `/buyer_products/{id}` → "Buyer product". */
function recordNameBefore(path: string, parameter: string): string {
  const collection = /\/(\w+)\/\{(\w+)\}/g;
  for (const [, plural = "", name] of path.matchAll(collection)) {
    if (name !== parameter) continue;
    const words = plural.replace(/s$/, "").replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return "Record";
}

/** The record types whose global IDs an argument or input field takes (`takesIdsOf` in src/schema/global-ids.ts). */
export function nodeTypesOf(
  extensions: Readonly<Record<string, unknown>> | null | undefined,
): readonly string[] {
  const nodeTypes = extensions?.nodeTypes;
  return Array.isArray(nodeTypes) ? nodeTypes.filter((type): type is string => typeof type === "string") : [];
}

function selectionsOf(
  parent: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  fail: (message: string) => never,
): Map<string, Selected> {
  const selected = new Map<string, Selected>();
  for (const node of selectionSet?.selections ?? []) {
    if (node.kind !== Kind.FIELD) return fail("REST documents select fields only");
    const field = parent.getFields()[node.name.value];
    if (!field) continue; // __typename
    const type = getNamedType(field.type);
    const children = isObjectType(type) ? selectionsOf(type, node.selectionSet, fail) : new Map();
    selected.set(node.alias?.value ?? node.name.value, { field, parentType: parent.name, children });
  }
  return selected;
}

/** Where in a result enum values and decimals sit. */
function enumPlan(selections: Map<string, Selected>): EnumPlan {
  const plan: EnumPlan = new Map();
  for (const [key, { field, children }] of selections) {
    const named = getNamedType(field.type);
    if (isEnumType(named)) plan.set(key, { spelling: enumSpelling(named).toContract });
    if (named.name === "Decimal") plan.set(key, { decimal: true });
    const inner = enumPlan(children);
    if (inner.size > 0) plan.set(key, { children: inner });
  }
  return plan;
}

/** The field selected at a dotted path of response keys. */
export function selectedAt(selections: Map<string, Selected>, at: string): Selected | undefined {
  let found: Selected | undefined;
  for (const key of at.split(".")) {
    found = (found ? found.children : selections).get(key);
    if (!found) return undefined;
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function property(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  const last = path.at(-1);
  if (last === undefined) return;
  let current = target;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (!isRecord(next)) current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[last] = value;
}
