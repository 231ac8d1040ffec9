import { createHash } from "node:crypto";
import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import type { Viewer } from "../auth/viewer.js";
import type { IdempotencyStore } from "../http/idempotency-store.js";
import type { GraphQLContext } from "../schema/context.js";
import { type CompiledRoute, compileRoute } from "./compiled-route.js";
import { describeFieldErrors, problemFromGraphQLError, restFieldName } from "./errors.js";
import { applyEnumPlan } from "./output.js";
import { jsonResponse, type Problem, problemResponse } from "./problem.js";
import { readJsonObject } from "./request-body.js";
import { API_PREFIX, routes as contractRoutes, type RestRoute } from "./routes.js";
import { withSharedResponsePaths } from "./shared-paths.js";
import { checkVariable, toGraphQLValue, type VariableProblem } from "./variables.js";

export interface RestDependencies {
  schema: GraphQLSchema;
  /** The same context GraphQL requests get, for an authenticated caller. */
  contextFor(viewer: Viewer, requestId: string): GraphQLContext;
  idempotency: IdempotencyStore;
  onUnexpectedError(error: unknown, requestId: string): void;
  routes?: RestRoute[];
  /** Wraps each operation's execution in a tracing span, when tracing is on. */
  traceExecution?(document: DocumentNode, run: () => Promise<ExecutionResult>): Promise<ExecutionResult>;
}

export interface RestCall {
  requestId: string;
  /** Null when the request had no valid API key. */
  viewer: Viewer | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const notFound: Problem = { status: 404, code: "not_found", detail: "No such resource" };

export type RestHandler = (request: Request, url: URL, call: RestCall) => Promise<Response>;

/** Serves the v1 contract by running each route's GraphQL operation against the shared schema. */
export function createRestHandler(dependencies: RestDependencies): RestHandler {
  const restSchema = withSharedResponsePaths(dependencies.schema);
  const compiled = (dependencies.routes ?? contractRoutes).map((route) => compileRoute(restSchema, route));

  return async (request, url, call) => {
    const relativePath = url.pathname.startsWith(`${API_PREFIX}/`)
      ? url.pathname.slice(API_PREFIX.length)
      : null;
    const candidates =
      relativePath === null ? [] : compiled.filter((entry) => entry.pattern.test(relativePath));
    if (relativePath === null || candidates.length === 0) return problemResponse(notFound, call.requestId);

    // HEAD is GET without the body (the HTTP server drops it).
    const method = request.method === "HEAD" ? "GET" : request.method;
    const entry = candidates.find((candidate) => candidate.method === method);
    if (!entry) {
      const methods = candidates.map((candidate) => candidate.method);
      // HEAD is served wherever GET is, so it is allowed there too (RFC 9110 §9.3.2).
      const allow = methods
        .flatMap((allowed) => (allowed === "GET" ? ["GET", "HEAD"] : [allowed]))
        .join(", ");
      return problemResponse(
        {
          status: 405,
          code: "method_not_allowed",
          detail: `${request.method} is not allowed here; use ${allow}`,
          headers: { allow },
        },
        call.requestId,
      );
    }
    if (!call.viewer) {
      return problemResponse(
        {
          status: 401,
          code: "unauthenticated",
          detail: "A valid X-API-KEY header is required",
          headers: { "www-authenticate": 'ApiKey realm="buyer-api", header="X-API-KEY"' },
        },
        call.requestId,
      );
    }

    const params = readPathParams(entry, relativePath);
    if (!params) return problemResponse(notFound, call.requestId);

    let body: Record<string, unknown> = {};
    if (entry.method !== "GET") {
      const read = await readJsonObject(request);
      if ("problem" in read) return problemResponse(read.problem, call.requestId);
      body = read.value;
    }

    const variables = toVariables(entry, { params, query: url.searchParams, body });
    if ("problem" in variables) return problemResponse(variables.problem, call.requestId);

    const idempotencyKey = entry.method === "POST" ? request.headers.get("idempotency-key") : null;
    if (idempotencyKey === null) {
      return respond(
        await run(entry, variables.values, call.viewer, call.requestId),
        entry,
        url,
        call.requestId,
      );
    }
    return runIdempotently(entry, variables.values, call.viewer, call.requestId, url, idempotencyKey, body);
  };

  async function runIdempotently(
    entry: CompiledRoute,
    variables: Record<string, unknown>,
    viewer: Viewer,
    requestId: string,
    url: URL,
    key: string,
    body: Record<string, unknown>,
  ): Promise<Response> {
    if (key.trim() === "" || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      const errors = [
        {
          field: "Idempotency-Key",
          code: "invalid",
          message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
        },
      ];
      return problemResponse(
        { status: 422, code: "validation_failed", detail: describeFieldErrors(errors), errors },
        requestId,
      );
    }
    const requestHash = createHash("sha256")
      .update(`${entry.method} ${url.pathname}\n${canonicalJson(body)}`)
      .digest("hex");
    const claim = await dependencies.idempotency.claim(viewer.apiKeyId, key, requestHash);
    switch (claim.kind) {
      case "mismatch":
        return problemResponse(
          {
            status: 422,
            code: "idempotency_key_reused",
            detail: "This Idempotency-Key was used with a different request",
          },
          requestId,
        );
      case "in_progress":
        return problemResponse(
          {
            status: 409,
            code: "idempotency_request_in_progress",
            detail: "A request with this Idempotency-Key is still being processed; retry shortly",
          },
          requestId,
        );
      case "replay":
        return new Response(claim.body, {
          status: claim.status,
          headers: {
            "content-type":
              claim.status >= 400 ? "application/problem+json" : "application/json; charset=utf-8",
            "idempotent-replayed": "true",
          },
        });
      case "claimed": {
        const response = respond(await run(entry, variables, viewer, requestId), entry, url, requestId);
        if (response.status >= 500) {
          await dependencies.idempotency.release(viewer.apiKeyId, key);
          return response;
        }
        const text = await response.text();
        await dependencies.idempotency.complete(viewer.apiKeyId, key, response.status, text);
        return new Response(text, { status: response.status, headers: response.headers });
      }
    }
  }

  async function run(
    entry: CompiledRoute,
    variableValues: Record<string, unknown>,
    viewer: Viewer,
    requestId: string,
  ): Promise<ExecutionResult> {
    const execute = () => entry.execute(dependencies.contextFor(viewer, requestId), variableValues);
    return dependencies.traceExecution ? dependencies.traceExecution(entry.document, execute) : execute();
  }

  function respond(result: ExecutionResult, entry: CompiledRoute, url: URL, requestId: string): Response {
    const [error] = result.errors ?? [];
    if (error || !result.data) {
      const problem = error ? problemFromGraphQLError(error, entry.route.argumentNames) : null;
      if (problem) return problemResponse(problem, requestId);
      dependencies.onUnexpectedError(error?.originalError ?? error ?? new Error("no data"), requestId);
      return problemResponse(
        {
          status: 500,
          code: "internal",
          detail: "An unexpected error occurred; quote the request id when reporting it",
        },
        requestId,
      );
    }
    const data = result.data as Record<string, unknown>;
    applyEnumPlan(data, entry.enumPlan);
    const headers: Record<string, string> = {};
    const cursor = entry.route.nextCursor?.(data);
    if (cursor) {
      const next = new URL(url);
      next.searchParams.set("cursor", cursor);
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return jsonResponse(JSON.stringify(entry.route.body(data)), entry.route.successStatus, headers);
  }
}

/** JSON with object keys sorted, so that the same body sent with its keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Path parameters, or null when one is not a UUID (such a record cannot exist: 404). */
function readPathParams(entry: CompiledRoute, relativePath: string): Record<string, string> | null {
  const match = entry.pattern.exec(relativePath);
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of entry.paramNames.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(match[index + 1] ?? "");
    } catch {
      return null;
    }
    if (!UUID.test(value)) return null;
    params[name] = value.toLowerCase();
  }
  return params;
}

function toVariables(
  entry: CompiledRoute,
  input: Parameters<RestRoute["variables"]>[0],
): { values: Record<string, unknown> } | { problem: Problem } {
  const raw = entry.route.variables(input);
  const problems: VariableProblem[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, type] of entry.variableTypes) {
    const value = toGraphQLValue(raw[name], type, [name], problems);
    checkVariable(name, value, type, problems);
    if (value !== undefined) values[name] = value;
  }
  if (problems.length === 0) return { values };
  const errors = problems.map((problem) => ({
    field: restFieldName(problem.path, entry.route.argumentNames),
    code: problem.code,
    message: problem.message,
  }));
  return { problem: { status: 422, code: "validation_failed", detail: describeFieldErrors(errors), errors } };
}
