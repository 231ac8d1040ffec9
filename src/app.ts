import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createServerAdapter } from "@whatwg-node/server";
import { printSchema } from "graphql";
import type { Viewer } from "./auth/viewer.js";
import type { AppConfig } from "./config.js";
import { API_PREFIX, isVersionedRead } from "./contract/route.js";
import { routes } from "./contract/routes.js";
import type { Database } from "./db/database.js";
import type { Prisma, PrismaClient } from "./db/generated/prisma/client.js";
import { createOrderUpdateFeed } from "./domain/order-notifications.js";
import { countUnrenderedChanges } from "./domain/webhook-events.js";
import { limitSubscriptionsPerKey } from "./graphql/subscription-limit.js";
import { createGraphQLServer } from "./graphql/yoga.js";
import { createAdmission, createAuthFailureLimit } from "./http/admission.js";
import { createApiReference, DOCS_PATH } from "./http/api-reference.js";
import { withCodeSamples } from "./http/code-samples.js";
import { createCompression } from "./http/compression.js";
import { createConditionalGets } from "./http/conditional-get.js";
import { createHomePage, HOME_PATH } from "./http/home-page.js";
import { createIdempotencyStore } from "./http/idempotency-store.js";
import { MAX_BODY_BYTES } from "./http/json-body.js";
import { type ClusterMetrics, createMetrics } from "./http/metrics.js";
import { problemResponse } from "./http/problem.js";
import type { RateLimitDecision } from "./http/rate-limiter.js";
import { pickRequestId } from "./http/request-id.js";
import { createRequestOrigin } from "./http/request-origin.js";
import { createResponseCache, type WhenSent } from "./http/response-cache.js";
import { addSecurityHeaders, createCors } from "./http/response-headers.js";
import type { Logger } from "./logger.js";
import { projectRoot } from "./project-root.js";
import { createRestHandler } from "./rest/handler.js";
import { buildOpenApiDocument, OPENAPI_PATH } from "./rest/openapi/document.js";
import { createRecordRenderer, renderRecordsOfBuyers } from "./rest/record-renderer.js";
import type { GraphQLContext } from "./schema/context.js";
import { schema } from "./schema/index.js";
import { type RequestSpan, type Tracing, withTracing } from "./telemetry/tracing.js";

export interface AppOptions {
  /** Complete: every default comes from the configuration table in src/config/, never from here. */
  config: AppConfig;
  database: Database;
  logger: Logger;
  /** Absent when tracing is off: then no tracing code runs at all. */
  tracing?: Tracing;
  /** Set by `buyer-api demo --serve` only: the demo buyer's key, shown on GET / and filled into GraphiQL. */
  demoApiKey?: string;
  /** In a worker of several (WEB_CONCURRENCY > 1): GET /metrics answers for all of them. */
  clusterMetrics?: ClusterMetrics;
}

/** Where a 404 points a client that guessed a path. */
const HELP_LINK = `<${DOCS_PATH}>; rel="help"`;

/**
 * What the HTTP server tells the app about a request beyond the request
 * itself; `app.fetch(request, { clientAddress })` in tests.
 */
export interface ServerContext {
  /** Without one (and without a socket), failed authentications are not limited per address. */
  clientAddress?: string;
  /** Set by @whatwg-node/server when the app serves node:http directly. */
  req?: { socket?: { remoteAddress?: string } };
  /** node:http's response, likewise: its "close" says the answer has gone out (or never will). */
  res?: { closed: boolean; once(event: "close", listener: () => void): unknown };
}

/** How to learn that the answer has left the process: only node:http's own response can tell. */
function whenSentOver(context: ServerContext): WhenSent | undefined {
  const { res } = context;
  if (!res || res.closed) return undefined;
  return (done) => {
    res.once("close", done);
  };
}

/** Status counted and logged for a request whose client hung up before the answer (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The whole service as one fetch handler: health checks, GraphQL and the v1
 * REST contract, sharing the API-key context. `server.ts` makes it listen;
 * tests call `app.fetch` directly.
 */
export function createApp({ config, database, logger, tracing, demoApiKey, clusterMetrics }: AppOptions) {
  const { prisma } = database;
  const logUnexpected = (error: unknown, requestId?: string) =>
    logger.error({ err: error, requestId }, "unexpected error");
  const gate = createAdmission(database, config.rateLimitPerMinute, (error) => logUnexpected(error));
  const authFailures = createAuthFailureLimit(database, config.authFailuresPerMinute, (error) =>
    logUnexpected(error),
  );
  const origin = createRequestOrigin({ publicBaseUrl: config.publicBaseUrl, trustProxy: config.trustProxy });
  const cors = createCors(config.corsOrigins);
  const metrics = createMetrics({ routePaths: routes.map((route) => `${API_PREFIX}${route.path}`) });
  /** Route templates with a GET of data the change log versions: conditional and cached. */
  const versionedReads = new Set(routes.filter(isVersionedRead).map((route) => `${API_PREFIX}${route.path}`));
  tracing?.registerMetrics(metrics.registry);
  clusterMetrics?.share(metrics.registry);

  const compression = createCompression(config.compression);
  const responseCache = createResponseCache(config.responseCacheMaxBytes);
  metrics.watchResponseCacheBytes(() => responseCache.bytes);
  const conditionalGets = createConditionalGets({
    salt: representationSalt(config.appBaseUrl),
    cache: responseCache,
    counters: metrics.conditionalGets,
  });

  const orderUpdates = createOrderUpdateFeed(database);
  const subscriptionsFor = limitSubscriptionsPerKey(orderUpdates, config.graphql.maxSubscriptionsPerKey);
  const contextFor = (viewer: Viewer | null, requestId: string, signal?: AbortSignal): GraphQLContext => ({
    prisma,
    viewer,
    requestId,
    appBaseUrl: config.appBaseUrl,
    orderUpdates: subscriptionsFor(viewer, signal),
    webhooks: config.webhooks,
  });

  const yoga = createGraphQLServer({
    schema,
    config: config.graphql,
    logger,
    contextFor,
    plugins: [metrics.graphqlPlugin, ...(tracing?.graphqlPlugins ?? [])],
    cancelsStatements: database.target.kind === "postgres",
    maxRequestBodySize: MAX_BODY_BYTES,
    demoApiKey,
  });

  const rest = createRestHandler({
    schema,
    contextFor,
    idempotency: createIdempotencyStore(prisma, config.webhooks.secretKeys, (error) => logUnexpected(error)),
    onUnexpectedError: logUnexpected,
    traceExecution: tracing?.traceExecution,
    entityTag: (url, buyerId, version) => conditionalGets.entityTag(url, { buyerId, version }),
  });

  // Generated once at startup: a route the document cannot describe stops the app here.
  const reference = createApiReference({
    documentPath: OPENAPI_PATH,
    documentJson: JSON.stringify(withCodeSamples(buildOpenApiDocument(schema))),
  });
  const home = createHomePage({ documentPath: OPENAPI_PATH, graphiql: config.graphql.graphiql, demoApiKey });

  async function metricsResponse(request: Request, requestId: string): Promise<Response> {
    const token = config.metricsToken;
    if (token && !safeEqual(request.headers.get("authorization") ?? "", `Bearer ${token}`)) {
      return problemResponse(
        {
          status: 401,
          code: "unauthenticated",
          detail: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>",
        },
        requestId,
      );
    }
    return new Response(await (clusterMetrics?.collect() ?? metrics.registry.metrics()), {
      headers: { "content-type": metrics.registry.contentType },
    });
  }

  async function route(
    request: Request,
    url: URL,
    requestId: string,
    clientAddress: string | null,
    onViewer: (viewer: Viewer) => void,
    whenSent: WhenSent | undefined,
  ) {
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    if (url.pathname === "/metrics") return metricsResponse(request, requestId);
    if (url.pathname === HOME_PATH) return home(request, url, requestId);
    const documentation = reference(request, url, requestId);
    if (documentation) return documentation;
    if (url.pathname === "/readyz") {
      const ready = await database.ping();
      return Response.json({ status: ready ? "ready" : "unavailable" }, { status: ready ? 200 : 503 });
    }
    const isGraphQL = url.pathname === "/graphql";
    const isRest = url.pathname.startsWith("/api/");
    if (!isGraphQL && !isRest) {
      return problemResponse(
        {
          status: 404,
          code: "not_found",
          detail: `No such resource; the API reference is at ${DOCS_PATH}`,
          headers: { link: HELP_LINK },
        },
        requestId,
      );
    }
    // An address that keeps failing to authenticate is refused before any key
    // lookup or body read, so guessing keys costs it more than it costs us.
    const refused = clientAddress === null ? null : authFailures.refusal(clientAddress);
    const key = request.headers.get("x-api-key");
    if (refused && !gate.admittedLately(key)) return authFailuresResponse(refused, requestId);
    const route = isRest ? metrics.routeLabel(url.pathname) : "unmatched";
    // A read of a REST route: conditional (ETag, If-None-Match) and cached.
    const isRead = (request.method === "GET" || request.method === "HEAD") && versionedReads.has(route);
    let admission = await gate.admit(key, isRead ? conditionalGets.claimedVersions(request) : []);
    if (!admission && key !== null && isGraphQL) {
      // A wrong key is refused before the body is read; REST does the same after its 404/405 checks.
      return unauthenticatedGraphQL();
    }
    if (admission) {
      onViewer(admission.viewer);
      if (!admission.counted) {
        // The client's tag names the buyer's current version: a 304, uncounted, unless the tag was another URL's.
        const notModified = conditionalGets.notModified(request, url, readState(admission));
        if (notModified) return withRateLimitHeaders(notModified, admission.limit);
        admission = await gate.count(admission);
      }
      const { limit } = admission;
      if (!limit.allowed) {
        const response = problemResponse(
          {
            status: 429,
            code: "rate_limited",
            detail: `More than ${limit.limit} requests in a minute; retry after ${limit.resetSeconds} s`,
            headers: { "retry-after": String(limit.resetSeconds) },
          },
          requestId,
        );
        return withRateLimitHeaders(response, limit);
      }
    }
    const viewer = admission?.viewer ?? null;
    const response = isGraphQL
      ? await yoga.fetch(request, { requestId, viewer, rateLimit: admission?.limit })
      : isRead && admission
        ? await conditionalGets.serve(
            url,
            readState(admission),
            () => rest(request, url, { requestId, viewer }),
            whenSent,
            compression.codingOf(request),
          )
        : await rest(request, url, { requestId, viewer });
    // A path no route matches: point to the reference.
    if (response.status === 404 && isRest && route === "unmatched") {
      response.headers.set("link", HELP_LINK);
    }
    return admission ? withRateLimitHeaders(response, admission.limit) : response;
  }

  async function authFailuresResponse(limit: RateLimitDecision, requestId: string): Promise<Response> {
    return problemResponse(
      {
        status: 429,
        code: "rate_limited",
        detail: `More than ${limit.limit} failed authentications from this address in a minute; retry after ${limit.resetSeconds} s`,
        headers: { "retry-after": String(limit.resetSeconds) },
      },
      requestId,
    );
  }

  /** Counts a 401 against the client's address; past the limit the answer becomes 429. */
  async function countingAuthFailure(response: Response, clientAddress: string | null, requestId: string) {
    if (response.status !== 401 || clientAddress === null) return response;
    const standing = await authFailures.record(clientAddress);
    if (standing.allowed) return response;
    await response.body?.cancel();
    return authFailuresResponse(standing, requestId);
  }

  const handle = async (request: Request, context: ServerContext, span?: RequestSpan): Promise<Response> => {
    const started = performance.now();
    const requestId = pickRequestId(request.headers.get("x-request-id"));
    let url: URL | null = null;
    let buyerId: string | null = null;
    let response: Response;
    let status: number;
    try {
      url = origin.publicUrl(request);
      const clientAddress = origin.clientAddress(
        request,
        context.clientAddress ?? context.req?.socket?.remoteAddress,
      );
      response =
        cors.preflight(request) ??
        (await countingAuthFailure(
          await route(
            request,
            url,
            requestId,
            clientAddress,
            (viewer) => {
              buyerId = viewer.buyerId;
            },
            whenSentOver(context),
          ),
          clientAddress,
          requestId,
        ));
      status = response.status;
      response = await compression.compress(request, response);
    } catch (error) {
      // A client that hangs up mid-request is not a fault of ours: it is
      // logged and counted as 499, so the 5xx rate stays true.
      const clientClosed = request.signal.aborted;
      if (!clientClosed) logUnexpected(error, requestId);
      response = problemResponse(
        { status: 500, code: "internal", detail: "An unexpected error occurred; quote the request id" },
        requestId,
      );
      status = clientClosed ? CLIENT_CLOSED_REQUEST : 500;
    }
    const pathname = url?.pathname ?? "unparsable";
    response.headers.set("x-request-id", requestId);
    cors.decorate(request, response);
    addSecurityHeaders(response);
    const seconds = (performance.now() - started) / 1000;
    metrics.observeRequest(pathname, request.method, status, seconds);
    const template = metrics.routeLabel(pathname);
    span?.end({
      route: template === "unmatched" ? null : template,
      status,
      buyerId,
      requestId,
    });
    logger.info(
      {
        requestId,
        method: request.method,
        path: pathname,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        buyerId,
        ...(span ? { traceId: span.traceId } : {}),
      },
      "request",
    );
    return response;
  };
  const adapter = createServerAdapter<ServerContext>((request, context) =>
    withTracing(tracing, (traced, span) => handle(traced, context, span))(request),
  );
  // Events show records as the REST single reads do (src/contract/event-records.ts);
  // the webhook worker renders a batch inside its own transaction, each buyer's records as that buyer.
  const renderRecords = createRecordRenderer(schema);
  const renderEventRecords = (
    tx: Prisma.TransactionClient,
    records: readonly { recordType: string; recordId: string; buyerId: string; changedAt: Date }[],
  ) =>
    renderRecordsOfBuyers(
      renderRecords,
      (buyerId) => ({
        ...contextFor({ buyerId, apiKeyId: "" }, "webhook-events"),
        prisma: tx as PrismaClient,
      }),
      records,
    );
  metrics.watchUnrenderedChanges(() => countUnrenderedChanges(prisma));

  // `app.dispose()` ends open subscription streams, which would otherwise keep
  // their connections, and a graceful shutdown, waiting.
  adapter.disposableStack.defer(() => orderUpdates.close());

  return Object.assign(adapter, {
    renderEventRecords,
    observeWebhookAttempt: metrics.observeWebhookAttempt,
    observeEventRendering: metrics.observeEventRendering,
  });
}

export type App = ReturnType<typeof createApp>;

/** The GraphQL answer to a request whose key is wrong, given without reading its body. */
function unauthenticatedGraphQL(): Response {
  return Response.json(
    {
      errors: [{ message: "A valid X-API-KEY header is required", extensions: { code: "UNAUTHENTICATED" } }],
    },
    { status: 401, headers: { "www-authenticate": 'ApiKey realm="buyer-api", header="X-API-KEY"' } },
  );
}

/** Whose data a read shows, at which version. */
function readState(admission: { viewer: Viewer; version: bigint }) {
  return { buyerId: admission.viewer.buyerId, version: admission.version };
}

/**
 * What, besides the data, decides the bytes of a response: the route table
 * (its GraphQL documents), the schema, the links' base URL and the release.
 * Entity tags carry a hash of it, so a tag from another build never matches.
 */
function representationSalt(appBaseUrl: string): string {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return createHash("sha256")
    .update(JSON.stringify(routes))
    .update(printSchema(schema))
    .update(appBaseUrl)
    .update(version)
    .digest("hex");
}

function withRateLimitHeaders(response: Response, limit: RateLimitDecision): Response {
  response.headers.set("ratelimit-limit", String(limit.limit));
  response.headers.set("ratelimit-remaining", String(limit.remaining));
  response.headers.set("ratelimit-reset", String(limit.resetSeconds));
  return response;
}

/** Compares secrets in constant time, so their content cannot be guessed from timing. */
function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
