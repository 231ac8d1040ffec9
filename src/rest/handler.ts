import {
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import type { Viewer } from "../auth/viewer.js";
import { API_PREFIX, isVersionedRead } from "../contract/route.js";
import { routes } from "../contract/routes.js";
import { readPositionOf } from "../http/admission.js";
import {
  EXPENSIVE_RETRY_AFTER_SECONDS,
  type ExpensiveSlot,
  type ExpensiveWork,
} from "../http/expensive-work.js";
import { respondIdempotently } from "../http/idempotency.js";
import { readJsonObject } from "../http/json-body.js";
import {
  jsonResponse,
  methodNotAllowed,
  type Problem,
  problemResponse,
  UNAUTHENTICATED,
} from "../http/problem.js";
import type { Route } from "../http/router.js";
import type { Endpoint, Exchange } from "../http/stages/exchange.js";
import { noOperation } from "../http/stages/not-found.js";
import type { GraphQLContext, ReadPosition } from "../schema/context.js";
import { ArgumentsRefusedError } from "../schema/planner/read-planner.js";
import { readOnReplicaOrPrimary, replicaFailureIn } from "../schema/read-on-replica.js";
import type { IdempotencyStore } from "../services/idempotency-store.js";
import { type EntityTagFor, withWrittenEntityTag, writeConditionFor } from "./conditional-write.js";
import { problemFor } from "./errors.js";
import {
  bodyOfResult,
  type PlannedRouteRead,
  type ReadBody,
  type RestReadPlanning,
  routeReadPlans,
} from "./planned-read.js";
import { type RouteOperation, readRouteOperation } from "./route-operation.js";
import { readPathParams, toVariables, unknownQueryParameter } from "./route-variables.js";

/** Each key's expensive work, shared with GraphQL, and the page size from which a list read is part of it. */
export interface ExpensiveReads {
  work: ExpensiveWork;
  pageSize: number;
}

export interface RestDependencies {
  schema: GraphQLSchema;
  /** The same context GraphQL requests get, for an authenticated caller and where its reads may run. */
  contextFor(viewer: Viewer, requestId: string, position: ReadPosition | null): GraphQLContext;
  idempotency: IdempotencyStore;
  onUnexpectedError(error: unknown, requestId: string): void;
  /** Wraps each operation's execution, or its planned read, in a tracing span, when tracing is on. */
  traceExecution?<Result>(operation: OperationDefinitionNode, run: () => Promise<Result>): Promise<Result>;
  /** The ETag of a GET: what If-Match is compared with, and the response of a write carries. */
  entityTag: EntityTagFor;
  /** Planned reads: GET routes whose documents plan answer from SQL rows without executing them. */
  readPlanning?: RestReadPlanning;
  expensiveReads: ExpensiveReads;
}

/** A record the caller cannot see, worded as the operations' own checks word it ("Order not found"). */
function recordNotFound(record: string): Problem {
  return { status: 404, code: "not_found", detail: `${record} not found` };
}

export interface RestHandler {
  /** One endpoint per path of the contract (`/api/public/buyer/v1/orders/{id}`), its operations' methods together. */
  routes: Route<Endpoint>[];
  /** Where the router sends a path under /api/ that no operation has: admitted like every other path, then a 404 naming it. */
  noOperation: Endpoint;
}

/** Serves the v1 contract by running each route's GraphQL operation against the shared schema. */
export function createRestHandler(dependencies: RestDependencies): RestHandler {
  const byPath = new Map<string, RouteOperation[]>();
  for (const route of routes) {
    const template = `${API_PREFIX}${route.path}`;
    byPath.set(template, [...(byPath.get(template) ?? []), readRouteOperation(dependencies.schema, route)]);
  }
  const served = {
    ...dependencies,
    plannedReadOf: routeReadPlans(dependencies.readPlanning, [...byPath.values()].flat()),
  };
  const endpoint = (candidates: readonly RouteOperation[]): Endpoint => {
    const versioned = candidates.find((entry) => isVersionedRead(entry.route));
    return {
      admits: true,
      versionedGet: versioned !== undefined,
      // What the planned read's statement reads; a request it refuses, executed, reads the same.
      versionedRecordTypes: (versioned && served.plannedReadOf(versioned)?.recordTypes) ?? null,
      handle: (exchange) => serve(served, exchange, candidates),
    };
  };
  return {
    routes: [...byPath].map(([template, candidates]) => ({ template, target: endpoint(candidates) })),
    noOperation: endpoint([]),
  };
}

type ServedDependencies = RestDependencies & {
  plannedReadOf(entry: RouteOperation): PlannedRouteRead | undefined;
};

/** The request at a path whose operations are `candidates` (none: no operation has the path). */
async function serve(
  dependencies: ServedDependencies,
  exchange: Exchange,
  candidates: readonly RouteOperation[],
): Promise<Response> {
  const { request, url, requestId } = exchange;
  const viewer = exchange.admission?.viewer ?? null;
  const fail = (problem: Problem) => problemResponse(problem, requestId);
  const entry = operationFor(request, url, candidates);
  if ("problem" in entry) return fail(entry.problem);
  if (!viewer) return fail(UNAUTHENTICATED);
  const params = readPathParams(entry, exchange.route.params);
  if ("missing" in params) return fail(recordNotFound(entry.recordNames[params.missing] ?? "Record"));
  let body: Record<string, unknown> = {};
  if (entry.route.method !== "GET") {
    const read = await readJsonObject(request);
    if ("problem" in read) return fail(read.problem);
    body = read.value;
  }
  const unknown = unknownQueryParameter(entry, url.searchParams);
  if (unknown) return fail(unknown);
  const variables = toVariables(entry, entry.variables(params.params, url.searchParams, body), body);
  if ("problem" in variables) return fail(variables.problem);

  // If-Match, checked by the mutation; the version it produced names the new ETag.
  const write = writeConditionFor(entry.route, request, url, viewer, dependencies.entityTag);
  // A keyed request runs in the transaction that keeps its response (see respondIdempotently).
  const run = async (prisma?: GraphQLContext["prisma"]) => {
    const context = {
      ...dependencies.contextFor(viewer, requestId, readPositionOf(exchange.admission)),
      ...(write ? { write } : {}),
    };
    if (entry.route.method === "GET")
      return serveRead(dependencies, entry, context, variables.values, url, requestId);
    const execute = () => entry.execute(prisma ? { ...context, prisma } : context, variables.values);
    const result = await traced(dependencies, entry, execute);
    const response = respond(dependencies, result, entry, url, requestId);
    return withWrittenEntityTag(response, write, url, viewer, dependencies.entityTag);
  };
  const key = entry.route.method === "POST" ? request.headers.get("idempotency-key") : null;
  if (key === null) {
    // Only a read the response cache could not answer reaches here.
    const slot = await expensiveReadSlot(
      dependencies.expensiveReads,
      entry,
      variables.values,
      viewer,
      request.signal,
    );
    if (slot === null) return fail(expensiveReadRefusal(dependencies.expensiveReads));
    try {
      return await run();
    } finally {
      slot?.release(exchange);
    }
  }
  const { apiKeyId } = viewer;
  try {
    const keyed = { apiKeyId, key, method: entry.route.method, pathname: url.pathname, body, requestId };
    return await respondIdempotently(dependencies.idempotency, keyed, run);
  } catch (error) {
    // Its transaction could not start (e.g. overloaded): mapped as a resolver's failure would be.
    return failed(dependencies, error, entry, requestId);
  }
}

/** What one read came to: the body its plan wrote, its execution's result, or what its plan threw. */
type ReadOutcome = { planned: ReadBody | null } | { executed: ExecutionResult } | { thrown: unknown };

/**
 * A GET: its plan, or its execution when the route has no plan or the plan
 * refuses the request, on the one reader chosen before it runs (and on the
 * primary once more when a replica failed it).
 */
async function serveRead(
  dependencies: ServedDependencies,
  entry: RouteOperation,
  context: GraphQLContext,
  variables: Record<string, unknown>,
  url: URL,
  requestId: string,
): Promise<Response> {
  const plan = dependencies.plannedReadOf(entry);
  const outcome = await readOnReplicaOrPrimary(
    context,
    isVersionedRead(entry.route),
    async (on): Promise<ReadOutcome> => {
      const read = plan?.read(variables, on);
      if (!read) return { executed: await traced(dependencies, entry, () => entry.execute(on, variables)) };
      try {
        return { planned: await traced(dependencies, entry, read) };
      } catch (error) {
        // Arguments below the root that execution refuses: execution words the error.
        if (error instanceof ArgumentsRefusedError)
          return { executed: await traced(dependencies, entry, () => entry.execute(on, variables)) };
        return { thrown: error };
      }
    },
    (outcome) =>
      "thrown" in outcome
        ? outcome.thrown
        : "executed" in outcome
          ? replicaFailureIn(outcome.executed)
          : undefined,
  );
  if ("planned" in outcome) return readResponse(outcome.planned, entry, url, requestId);
  if ("executed" in outcome) return respond(dependencies, outcome.executed, entry, url, requestId);
  dependencies.readPlanning?.failed(entry.route.operationId, outcome.thrown);
  return failed(dependencies, outcome.thrown, entry, requestId);
}

/** An operation's execution, or its plan's read, in a tracing span when tracing is on. */
function traced<Result>(
  { traceExecution }: Pick<RestDependencies, "traceExecution">,
  entry: RouteOperation,
  run: () => Promise<Result>,
): Promise<Result> {
  return traceExecution ? traceExecution(entry.operation, run) : run();
}

/**
 * A slot of the key's expensive work for a large page, once it is its turn
 * (undefined for any other request, which never waits), or null when the
 * key has as many waiting as it may.
 */
async function expensiveReadSlot(
  expensiveReads: ExpensiveReads,
  entry: RouteOperation,
  values: Record<string, unknown>,
  viewer: Viewer,
  signal: AbortSignal,
): Promise<ExpensiveSlot | null | undefined> {
  const pageSize = values.first;
  if (entry.route.method !== "GET" || typeof pageSize !== "number") return undefined;
  if (pageSize < expensiveReads.pageSize) return undefined;
  return expensiveReads.work.take(viewer.apiKeyId, signal);
}

function expensiveReadRefusal({ work, pageSize }: ExpensiveReads): Problem {
  return {
    status: 429,
    code: "rate_limited",
    detail: `At most ${work.maxPerKey} pages of ${pageSize} or more items may be read or sent at once per API key, and ${work.maxWaitingPerKey} more wait their turn; retry after ${EXPENSIVE_RETRY_AFTER_SECONDS} s, or ask for smaller pages`,
    headers: { "retry-after": String(EXPENSIVE_RETRY_AFTER_SECONDS) },
  };
}

/** The operation of the request's method among a path's, or its 404 (no operation has the path) or 405. */
function operationFor(
  request: Request,
  url: URL,
  candidates: readonly RouteOperation[],
): RouteOperation | { problem: Problem } {
  if (candidates.length === 0) return { problem: noOperation(url.pathname) };
  // HEAD is GET without the body (the HTTP server drops it).
  const method = request.method === "HEAD" ? "GET" : request.method;
  const entry = candidates.find((candidate) => candidate.route.method === method);
  if (entry) return entry;
  // HEAD is served wherever GET is, so it is allowed there too (RFC 9110 §9.3.2).
  const allow = candidates.flatMap(({ route }) =>
    route.method === "GET" ? ["GET", "HEAD"] : [route.method],
  );
  return { problem: methodNotAllowed(request.method, allow) };
}

/** The problem for a failure; anything unexpected is logged and disclosed as nothing but 500. */
function failed(
  dependencies: Pick<RestDependencies, "onUnexpectedError">,
  error: unknown,
  entry: RouteOperation,
  requestId: string,
): Response {
  const problem = problemFor(error, entry.argumentNames);
  if (problem) return problemResponse(problem, requestId);
  dependencies.onUnexpectedError(
    error instanceof GraphQLError ? (error.originalError ?? error) : error,
    requestId,
  );
  const detail = "An unexpected error occurred; quote the request id when reporting it";
  return problemResponse({ status: 500, code: "internal", detail }, requestId);
}

function respond(
  dependencies: Pick<RestDependencies, "onUnexpectedError">,
  result: ExecutionResult,
  entry: RouteOperation,
  url: URL,
  requestId: string,
): Response {
  const [error] = result.errors ?? [];
  if (error || !result.data) return failed(dependencies, error ?? new Error("no data"), entry, requestId);
  const { empty, status } = entry.response;
  if (empty) return new Response(null, { status });
  return readResponse(bodyOfResult(entry, result.data), entry, url, requestId);
}

/** A body as the response, with the next page's `Link`; a single read answers null for a record the caller cannot see. */
function readResponse(read: ReadBody | null, entry: RouteOperation, url: URL, requestId: string): Response {
  if (!read) return problemResponse(recordNotFound(entry.readRecordName), requestId);
  const headers: Record<string, string> = {};
  if (read.nextCursor) {
    const next = new URL(url);
    next.searchParams.set("cursor", read.nextCursor);
    headers.link = `<${next.toString()}>; rel="next"`;
  }
  return jsonResponse(read.json, entry.response.status, headers);
}
