import { type GraphQLSchema, getNamedType, isInputObjectType } from "graphql";
import { PROBLEMS, type ProblemCode } from "../contract/problems.js";
import { HEADER_PARAMETERS, RESPONSE_HEADERS, referenceIntroduction } from "../contract/reference.js";
import { API_PREFIX, isVersionedRead, type RestRoute } from "../contract/route.js";
import { routes as contractRoutes, TAG_DESCRIPTIONS } from "../contract/routes.js";
import { acceptsIfMatch } from "../rest/conditional-write.js";
import { type RouteOperation, readRouteOperation } from "../rest/route-operation.js";
import { typeWebhookEvents, WEBHOOKS_TAG, webhookOperations } from "./events.js";
import {
  operationProblemSchema,
  problemResponses,
  problemSchema,
  problemTable,
  requestProblems,
} from "./problems.js";
import { idSchema, inputObjectSchema, inputSchema, responseSchema, SchemaRegistry } from "./schemas.js";
import type { JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, Response } from "./types.js";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export interface DocumentOptions {
  /** The public origin the API is served at (`PUBLIC_BASE_URL`): the document's one server. */
  origin: string;
  routes?: readonly RestRoute[];
}

/**
 * The OpenAPI 3.1 description of the v1 REST API, generated from the route
 * table and the GraphQL schema the routes run against, so that it describes
 * what the service does rather than what someone remembered to write down.
 * It throws when a route and the schema disagree.
 *
 * Paths are whole (`/api/public/buyer/v1/orders`) and the server is the bare
 * origin, as Stripe's and GitHub's documents are: generators that ignore
 * `servers` still call the right path, and those that read it call the
 * right origin (docs/design/decisions.md §6 "Limits").
 */
export function buildOpenApiDocument(
  schema: GraphQLSchema,
  { origin, routes = contractRoutes }: DocumentOptions,
): OpenApiDocument {
  const registry = new SchemaRegistry();
  const problemRef = problemSchema(schema, registry);
  const paths: Record<string, PathItem> = {};
  for (const route of routes) {
    const operation = buildOperation(readRouteOperation(schema, route), registry, problemRef);
    const path = `${API_PREFIX}${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  // After every route, so that every operation answering events refers to the union.
  const eventTypes = typeWebhookEvents(schema, registry);
  const tags = routes.map((route) => route.tag);
  if (eventTypes.size > 0) tags.push(WEBHOOKS_TAG);
  return {
    openapi: "3.1.0",
    info: { title: "Buyer Public API", version: "v1", description: referenceIntroduction(problemTable()) },
    servers: [{ url: new URL(origin).origin, description: "This server" }],
    security: [{ ApiKey: [] }],
    tags: [...new Set(tags)].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
    paths,
    ...(eventTypes.size > 0 ? { webhooks: webhookOperations(eventTypes) } : {}),
    components: {
      schemas: registry.schemas,
      parameters: HEADER_PARAMETERS,
      headers: RESPONSE_HEADERS,
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-KEY",
          description: "Your organisation's API key (`bpk_…`), issued by an operator.",
        },
      },
    },
  };
}

/** One operation of the document, from its route table entry and the GraphQL types it feeds and reads. */
function buildOperation(
  operation: RouteOperation,
  registry: SchemaRegistry,
  problemRef: JsonSchema,
): Operation {
  const { route } = operation;
  // In this order, so that the schemas they name are registered in it.
  const parameters = operationParameters(operation, registry);
  const requestBody = requestBodyOf(operation, registry);
  const success = successResponse(operation, registry);
  const problems = problemsOf(operation);
  // In the catalogue's order, whatever order the route lists them in.
  const codes = (Object.keys(PROBLEMS) as ProblemCode[]).filter((code) => problems.has(code));
  const operationProblem = operationProblemSchema(route.operationId, codes, problemRef, registry);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(operation.response.status)]: success,
      ...(isVersionedRead(route) ? { "304": notModified(operation) } : {}),
      ...problemResponses(problems, route.problemExamples ?? {}, operationProblem, (code) =>
        headersFor(PROBLEMS[code].status, operation, PROBLEMS[code].beforeRouting),
      ),
    },
  };
}

/** Every problem the route may answer, with when it does: the route's own words over the catalogue's. */
function problemsOf({ route }: RouteOperation): Map<ProblemCode, string> {
  const problems = new Map(
    requestProblems(route.method, route.path).map((code) => [code, PROBLEMS[code].when]),
  );
  for (const [code, when] of Object.entries(route.problems ?? {}) as [ProblemCode, string][])
    problems.set(code, when);
  return problems;
}

function described(...texts: (string | null | undefined)[]): string {
  return texts.filter(Boolean).join(" ");
}

/** The path and query parameters, then the headers the route reads. */
function operationParameters(
  { route, pathTargets, query }: RouteOperation,
  registry: SchemaRegistry,
): Operation["parameters"] {
  const pathParameters = [...pathTargets].map(([name, target]): Parameter => {
    const parameter = route.pathParameters?.[name];
    return {
      name,
      in: "path",
      required: true,
      description: described(target.description, parameter?.description),
      schema: idSchema(target.nodeTypes, registry),
      ...(parameter ? { example: parameter.example } : {}),
    };
  });
  const queryParameters = query.map(
    ({ name, target, form, description, schema, example }): Parameter => ({
      name: form === "list" ? `${name}[]` : name,
      in: "query",
      required: false,
      description: described(target.description, description),
      schema: { ...queryParameterSchema(target, registry), ...schema },
      ...(form === "list" ? { style: "form", explode: true } : {}),
      example,
    }),
  );
  return [
    ...pathParameters,
    ...queryParameters,
    ...(route.method === "POST" ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
    ...(isVersionedRead(route) ? [{ $ref: "#/components/parameters/IfNoneMatch" }] : []),
    ...(acceptsIfMatch(route) ? [{ $ref: "#/components/parameters/IfMatch" }] : []),
    { $ref: "#/components/parameters/RequestId" },
  ];
}

/** A query parameter's schema: its GraphQL type's, with what the field's `extensions.jsonSchema` adds. */
function queryParameterSchema(target: RouteOperation["query"][number]["target"], registry: SchemaRegistry) {
  const typed = inputSchema(target.type, { registry, limitStrings: false }, target.nodeTypes);
  const hint = target.jsonSchema as JsonSchema;
  return {
    ...typed,
    ...hint,
    ...(typed.items && hint.items ? { items: { ...typed.items, ...hint.items } } : {}),
  };
}

/** The JSON body a route takes, without the fields its path fills; undefined for a route without one. */
function requestBodyOf(
  { route, pathTargets, bodyTarget }: RouteOperation,
  registry: SchemaRegistry,
): Operation["requestBody"] {
  const type = bodyTarget && getNamedType(bodyTarget.type);
  if (!route.body || !bodyTarget || !isInputObjectType(type)) return undefined;
  const name = route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
  // Body fields a path parameter fills are not the client's to send.
  const fromPath = [...pathTargets.values()].filter(({ path }) => path.length === bodyTarget.path.length + 1);
  const filled = new Set(fromPath.map(({ path }) => path.at(-1) ?? ""));
  const options = { registry, limitStrings: true };
  const object = inputObjectSchema(type, options, filled, route.body.fields ?? {});
  return {
    required: (object.required ?? []).length > 0,
    ...(bodyTarget.description ? { description: bodyTarget.description } : {}),
    content: {
      "application/json": {
        schema: registry.ref(`${name}Request`, object),
        examples: { default: { value: route.body.example } },
      },
    },
  };
}

function successResponse(operation: RouteOperation, registry: SchemaRegistry): Response {
  const { status } = operation.response;
  const { description, example } = operation.route.success;
  const success: Response = { description, headers: headersFor(status, operation) };
  const body = responseSchema(operation, registry);
  const examples: Record<string, { value: unknown }> =
    example === undefined ? {} : { default: { value: example } };
  if (body) success.content = { "application/json": { schema: body, examples } };
  return success;
}

function notModified(operation: RouteOperation): Response {
  return {
    description:
      "Not Modified: `If-None-Match` named the current `ETag`. No body; keep using the response you have. Not counted against the rate limit.",
    headers: headersFor(304, operation),
  };
}

/** Statuses whose response an idempotent POST can replay: the outcome of the operation, not of the checks before it. */
const REPLAYABLE = new Set([200, 201, 404, 409, 422]);

/**
 * The headers of a response with this status. Rate-limit headers come with
 * every response to a valid key: a 401 has none, a 500 may have lost them, a
 * 503 may have come before the key could be read (the database unreachable),
 * and what the HTTP server answers before routing never read a key.
 */
function headersFor(
  status: number,
  { route, response }: RouteOperation,
  beforeRouting = false,
): Response["headers"] {
  const names: (keyof typeof RESPONSE_HEADERS)[] = ["X-Request-Id"];
  if (status !== 401 && status !== 500 && status !== 503 && !beforeRouting)
    names.push("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
  if (status === 429 || status === 503) names.push("Retry-After");
  if (response.list && status < 300) names.push("Link");
  if (route.method === "POST" && REPLAYABLE.has(status)) names.push("Idempotent-Replayed");
  if (isVersionedRead(route) && (status === 200 || status === 304)) names.push("ETag", "Cache-Control");
  else if (acceptsIfMatch(route) && status === 200) names.push("ETag");
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
