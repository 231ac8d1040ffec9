import { type GraphQLSchema, getNamedType, isInputObjectType } from "graphql";
import { PROBLEMS, type ProblemCode } from "../../contract/problems.js";
import { API_PREFIX } from "../../contract/route.js";
import { routes as contractRoutes, TAG_DESCRIPTIONS } from "../../contract/routes.js";
import { type CompiledRoute, compileRoute } from "../compiled-route.js";
import {
  CONDITIONAL_HEADERS,
  CONDITIONAL_PARAMETERS,
  conditionalHeaderNames,
  conditionalParameters,
  notModifiedResponses,
  POLLING_SECTION,
} from "./conditional.js";
import { problemResponses, problemSchema, problemTable, requestProblems } from "./problems.js";
import { inputObjectSchema, inputSchema, responseSchema, SchemaRegistry } from "./schemas.js";
import type {
  Header,
  JsonSchema,
  OpenApiDocument,
  Operation,
  Parameter,
  PathItem,
  Response,
} from "./types.js";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * The OpenAPI 3.1 description of the v1 REST API, generated from the route
 * table and the GraphQL schema the routes run against, so that it describes
 * what the service does rather than what someone remembered to write down.
 * It throws when a route and the schema disagree.
 */
export function buildOpenApiDocument(schema: GraphQLSchema, routes = contractRoutes): OpenApiDocument {
  const registry = new SchemaRegistry();
  const problemRef = problemSchema(schema, registry);
  const paths: Record<string, PathItem> = {};
  for (const route of routes) {
    const operation = buildOperation(compileRoute(schema, route), registry, problemRef);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: "3.1.0",
    info: { title: "Buyer Public API", version: "v1", description: OVERVIEW },
    servers: [{ url: API_PREFIX, description: "This server" }],
    security: [{ ApiKey: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
    paths,
    components: {
      schemas: registry.schemas,
      parameters: { ...PARAMETERS, ...CONDITIONAL_PARAMETERS },
      headers: { ...RESPONSE_HEADERS, ...CONDITIONAL_HEADERS },
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
  compiled: CompiledRoute,
  registry: SchemaRegistry,
  problemRef: JsonSchema,
): Operation {
  const { route, pathTargets, query, bodyTarget } = compiled;
  const problems = new Map(
    requestProblems(route.method, route.path).map((code) => [code, PROBLEMS[code].when]),
  );
  for (const [code, when] of Object.entries(route.problems ?? {}) as [ProblemCode, string][])
    problems.set(code, when);
  const name = route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
  const described = (...texts: (string | null | undefined)[]) => texts.filter(Boolean).join(" ");
  const pathParameters = [...pathTargets].map(([name, target]): Parameter => {
    const parameter = route.pathParameters?.[name];
    return {
      name,
      in: "path",
      required: true,
      description: described(target.description, parameter?.description),
      schema: { type: "string", format: "uuid" },
      ...(parameter ? { example: parameter.example } : {}),
    };
  });
  const queryParameters = query.map(
    ({ name, target, form, description, schema, example }): Parameter => ({
      name: form === "list" ? `${name}[]` : name,
      in: "query",
      required: false,
      description: described(target.description, description),
      schema: { ...inputSchema(target.type, { registry, limitStrings: false }), ...schema },
      ...(form === "list" ? { style: "form", explode: true } : {}),
      example,
    }),
  );
  let requestBody: Operation["requestBody"];
  const type = bodyTarget && getNamedType(bodyTarget.type);
  if (route.body && bodyTarget && isInputObjectType(type)) {
    // Body fields a path parameter fills are not the client's to send.
    const fromPath = [...pathTargets.values()].filter(
      ({ path }) => path.length === bodyTarget.path.length + 1,
    );
    const filled = new Set(fromPath.map(({ path }) => path.at(-1) ?? ""));
    const options = { registry, limitStrings: true };
    const object = inputObjectSchema(type, options, filled, route.body.fields ?? {});
    requestBody = {
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
  const { status } = compiled.response;
  const { description, example } = route.success;
  const success: Response = { description, headers: headersFor(status, compiled) };
  const body = responseSchema(compiled, registry);
  const examples: Record<string, { value: unknown }> =
    example === undefined ? {} : { default: { value: example } };
  if (body) success.content = { "application/json": { schema: body, examples } };
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: [
      ...pathParameters,
      ...queryParameters,
      ...(route.method === "POST" ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
      ...conditionalParameters(route),
      { $ref: "#/components/parameters/RequestId" },
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(status)]: success,
      ...notModifiedResponses(route, headersFor(304, compiled)),
      ...problemResponses(problems, route.problemExamples ?? {}, problemRef, (code) =>
        headersFor(PROBLEMS[code].status, compiled),
      ),
    },
  };
}

// Headers are decided by the HTTP layer (app.ts, handler.ts), not by the
// route table, so they are described here once and referenced by responses.

const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id: the caller's `X-Request-Id` when it is a sane token (letters, digits and `._:-`, at most 128 characters), else a new UUID. Problem bodies carry it as `request_id`.",
    required: true,
    schema: { type: "string" },
  },
  "RateLimit-Limit": {
    description: "Requests the API key may make per one-minute window.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the current window ends.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  Link: {
    description:
      'The next page as `<url>; rel="next"` (RFC 8288), when more items follow; absent on the last page. The URL keeps every other query parameter.',
    required: false,
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this response replays the first response to an earlier request with the same `Idempotency-Key`; nothing was done again.",
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
} satisfies Record<string, Header>;

const PARAMETERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: the same key with the same body, from the same API key, within 24 hours, replays the first response (with `Idempotent-Replayed: true`) and creates nothing. The same key with a different body is 422 `idempotency_key_reused`. Use a new random value, such as a UUID, per intended operation.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
    example: "5f0c3d4e-8b7a-4c2d-9e1f-a2b3c4d5e6f7",
  },
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request, echoed in the `X-Request-Id` response header and in problem bodies when it is letters, digits and `._:-`, at most 128 characters; otherwise the service makes one.",
    schema: { type: "string" },
    example: "checkout-7f3a9",
  },
} satisfies Record<string, Parameter>;

/** Statuses whose response an idempotent POST can replay: the outcome of the operation, not of the checks before it. */
const REPLAYABLE = new Set([200, 201, 404, 409, 422]);

/**
 * The headers of a response with this status. Rate-limit headers come with
 * every response to a valid key: a 401 has none, and a 500 may have lost them.
 */
function headersFor(status: number, { route, response }: CompiledRoute): Response["headers"] {
  const names: (keyof typeof RESPONSE_HEADERS | keyof typeof CONDITIONAL_HEADERS)[] = ["X-Request-Id"];
  if (status !== 401 && status !== 500)
    names.push("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
  if (status === 429 || status === 503) names.push("Retry-After");
  if (response.list && status < 300) names.push("Link");
  if (route.method === "POST" && REPLAYABLE.has(status)) names.push("Idempotent-Replayed");
  names.push(...conditionalHeaderNames(status, route));
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** The introduction of the reference: what holds for every operation. */
const OVERVIEW = `The Buyer Public API lets your organisation manage supplier users, tags, buyer products, orders and buyer product approvals. Every request and response body is JSON; every path starts with \`/api/public/buyer/v1\`.

The same operations are available as GraphQL at [\`/graphql\`](/graphql) (GraphiQL in a browser).

## Authentication

Send your API key in the \`X-API-KEY\` header on every request. Keys belong to one buyer organisation and see only its records: a record of another organisation behaves exactly like one that does not exist (404). Keys are issued and revoked by an operator; a missing, unknown or revoked key is 401.

## Errors

Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details with \`Content-Type: application/problem+json\` and a stable \`code\`. Field problems are all reported at once in \`errors\`, each naming the field in the REST spelling (\`tag_ids[2]\`). Checks run in this order: unknown path (404), wrong method (405, with \`Allow\`), API key (401), rate limit (429), path id (404), content type (415), size (413), JSON (400), field types and enum values (422), then the operation itself (its own 404, 409, 422).

${problemTable()}

## Pagination

The list operations return a bare JSON array, newest first. \`limit\` (1 to 500, default 100) sets the page size; when more items follow, the response carries \`Link: <url>; rel="next"\` and that URL returns the next page.

## Idempotency

\`POST\` operations accept an \`Idempotency-Key\` header (at most 255 characters). Repeating a request with the same key and body within 24 hours returns the first response again, with \`Idempotent-Replayed: true\`, and creates nothing. A 5xx response is not kept, so the request may be retried.

## Rate limits

Each API key may make a fixed number of requests per minute (600 unless configured). Responses to a valid key carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the limit the response is 429 with \`Retry-After\`. A 304 Not Modified is not counted.

${POLLING_SECTION}

## Versioning

The version is the \`v1\` in the path. Changes within v1 are additive only: new operations, new optional request fields, new response fields. Ignore response fields you do not know; unknown request fields are ignored too.`;
