import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createServerAdapter } from "@whatwg-node/server";
import { printSchema } from "graphql";
import type { Viewer } from "./auth/viewer.js";
import type { AppConfig } from "./config.js";
import { routes } from "./contract/routes.js";
import { readDataModel } from "./db/data-model.js";
import type { Database } from "./db/database.js";
import type { Prisma, PrismaClient } from "./db/generated/prisma/client.js";
import { selectRowsIn } from "./db/readers.js";
import type { ReadPosition } from "./db/replicas.js";
import { graphqlRoute } from "./graphql/endpoint.js";
import { type PlannedReads, plannedReadsPlugin } from "./graphql/planned-reads.js";
import { limitSubscriptionsPerKey } from "./graphql/subscription-limit.js";
import { createGraphQLServer } from "./graphql/yoga.js";
import { createAdmission, createAuthFailureLimit } from "./http/admission.js";
import { withCodeSamples } from "./http/code-samples.js";
import { createCompression } from "./http/compression.js";
import { type ConditionalGets, createConditionalGets } from "./http/conditional-get.js";
import { createExpensiveWork, type ExpensiveWork, expensiveTurnsBounds } from "./http/expensive-work.js";
import type { FairTurns } from "./http/fair-turns.js";
import { MAX_BODY_BYTES } from "./http/json-body.js";
import { type ClusterMetrics, createMetrics, type Metrics } from "./http/metrics.js";
import { createRequestOrigin } from "./http/request-origin.js";
import { createResponseCache } from "./http/response-cache.js";
import { createCors } from "./http/response-headers.js";
import { createRouter, type Router } from "./http/router.js";
import { serviceRoutes } from "./http/service-endpoints.js";
import { admission } from "./http/stages/admission.js";
import { compress } from "./http/stages/compression.js";
import { conditionalGet } from "./http/stages/conditional-get.js";
import { cors } from "./http/stages/cors.js";
import { dispatch } from "./http/stages/dispatch.js";
import { unexpectedErrors } from "./http/stages/errors.js";
import { compose, type Endpoint, type ServerContext } from "./http/stages/exchange.js";
import { failedAuthLimit } from "./http/stages/failed-auth-limit.js";
import { notFound } from "./http/stages/not-found.js";
import { observe } from "./http/stages/observe.js";
import { rateLimit } from "./http/stages/rate-limit.js";
import { requestIdHeader } from "./http/stages/request-id.js";
import { responseCache } from "./http/stages/response-cache.js";
import { createRouting } from "./http/stages/routing.js";
import { securityHeaders } from "./http/stages/security-headers.js";
import { countSending, sendingLimit } from "./http/stages/sending.js";
import type { Logger } from "./logger.js";
import { buildOpenApiDocument, OPENAPI_PATH } from "./openapi/document.js";
import { projectRoot } from "./project-root.js";
import { createRestHandler } from "./rest/handler.js";
import type { RestReadPlanning } from "./rest/planned-read.js";
import { createRecordRenderer, renderRecordsOfBuyers } from "./rest/record-renderer.js";
import type { GraphQLContext } from "./schema/context.js";
import { schema } from "./schema/index.js";
import { createReadPlanner, type ReadPlanner } from "./schema/planner/read-planner.js";
import { createIdempotencyStore } from "./services/idempotency-store.js";
import { createOrderUpdateFeed, type OrderUpdateFeed } from "./services/order-notifications.js";
import { webhookEndpointsWith } from "./services/webhook-endpoints.js";
import { countUnrenderedChanges } from "./services/webhook-events.js";
import type { Tracing } from "./telemetry/tracing.js";

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
  /** In a worker of several: expensive work takes turns kept by the primary, across the host. Absent: this process's own. */
  expensiveTurns?: FairTurns;
  /**
   * The process's metrics, which GET /metrics shows: the process root builds
   * them and hands the same to the HTTP server and the webhook worker, which
   * count into them too. Absent, the app counts into metrics of its own.
   */
  metrics?: Metrics;
}

/**
 * The whole service as one fetch handler: health checks, GraphQL and the v1
 * REST contract, sharing the API-key context. It builds the services, then
 * the row of stages every request passes through, outermost first (each
 * stage in src/http/stages/ says what it does). `server.ts` makes it listen;
 * tests call `app.fetch` directly.
 */
export function createApp(options: AppOptions) {
  const { config, database, logger, tracing, clusterMetrics } = options;
  const logUnexpected = (error: unknown, requestId?: string) =>
    logger.error({ err: error, requestId }, "unexpected error");
  const metrics = options.metrics ?? createMetrics();
  tracing?.registerMetrics(metrics.registry);
  clusterMetrics?.share(metrics.registry);
  metrics.watchUnrenderedChanges(() => countUnrenderedChanges(database.prisma));
  const gate = createAdmission(database, config.rateLimitPerMinute, (error) => logUnexpected(error));
  const authFailures = createAuthFailureLimit(database, config.authFailuresPerMinute, (error) =>
    logUnexpected(error),
  );
  const compression = createCompression(config.compression);
  const cache = createResponseCache(config.responseCacheMaxBytes);
  metrics.watchResponseCacheBytes(() => cache.bytes);
  const conditionalGets = createConditionalGets({
    salt: representationSalt(config.appBaseUrl),
    cache,
    counters: metrics.conditionalGets,
  });
  const orderUpdates = createOrderUpdateFeed(database);
  const subscriptionsFor = limitSubscriptionsPerKey(orderUpdates, config.graphql.maxSubscriptionsPerKey);
  const contextFor: ContextFor = (viewer, requestId, position, signal) => ({
    ...graphqlContext(config, database, subscriptionsFor(viewer, signal), viewer, requestId),
    reads: database.readsFor(position),
  });
  metrics.watchDatabaseReads(() => ({ replicas: database.replicas(), served: database.readsServed() }));
  const expensiveWork = createExpensiveWork(
    {
      ...expensiveTurnsBounds(config),
      maxSendingBytesPerKey: config.maxSendingBytesPerKey,
    },
    options.expensiveTurns,
  );
  metrics.watchExpensiveWork(expensiveWork);
  const router = createRoutes(options, {
    metrics,
    contextFor,
    conditionalGets,
    expensiveWork,
    logUnexpected,
  });

  const serve = compose(
    [
      observe({ metrics, logger }),
      requestIdHeader,
      securityHeaders,
      cors(createCors(config.corsOrigins)),
      unexpectedErrors(logUnexpected),
      countSending(expensiveWork),
      compress(compression),
      failedAuthLimit({ authFailures, gate }),
      admission({ gate, conditionalGets }),
      conditionalGet({ gate, conditionalGets }),
      rateLimit,
      sendingLimit(expensiveWork),
      responseCache({ conditionalGets, compression }),
    ],
    dispatch,
  );
  const exchangeFor = createRouting(router, createRequestOrigin(config));
  const adapter = createServerAdapter<ServerContext>(
    tracing
      ? (request, context) =>
          tracing.traceRequest(request, (span) => serve(exchangeFor(request, context, span)))
      : (request, context) => serve(exchangeFor(request, context, undefined)),
  );
  // `app.dispose()` ends open subscription streams, which would otherwise keep
  // their connections, and a graceful shutdown, waiting.
  adapter.disposableStack.defer(() => orderUpdates.close());
  return adapter;
}

export type App = ReturnType<typeof createApp>;

/** The one router: every path the service answers, each template once. */
function createRoutes(
  { config, database, logger, tracing, demoApiKey, clusterMetrics }: AppOptions,
  services: {
    metrics: Metrics;
    contextFor: ContextFor;
    conditionalGets: ConditionalGets;
    expensiveWork: ExpensiveWork;
    logUnexpected: (error: unknown, requestId?: string) => void;
  },
): Router<Endpoint> {
  const { metrics, contextFor, conditionalGets, expensiveWork, logUnexpected } = services;
  const reads = readPlanning(database, metrics, logger);
  const yoga = createGraphQLServer({
    schema,
    config: config.graphql,
    logger,
    contextFor,
    plugins: [
      metrics.graphqlPlugin,
      ...(tracing?.graphqlPlugins ?? []),
      // Last: it answers a planned query once the cost limit and the execute span have run.
      ...(config.graphql.plannedReads
        ? [
            plannedReadsPlugin(
              schema,
              plannedReads(reads.planner, metrics, logger, tracing),
              config.graphql.persistedDocuments.manifest,
            ),
          ]
        : []),
    ],
    maxRequestBodySize: MAX_BODY_BYTES,
    demoApiKey,
    expensiveWork,
  });
  const rest = createRestHandler({
    schema,
    contextFor,
    idempotency: createIdempotencyStore(database.prisma, config.webhooks.secretKeys, (error) =>
      logUnexpected(error),
    ),
    onUnexpectedError: logUnexpected,
    traceExecution: tracing?.traceExecution,
    entityTag: (url, buyerId, version) => conditionalGets.entityTag(url, { buyerId, version }),
    readPlanning: reads,
    expensiveReads: { work: expensiveWork, pageSize: config.expensivePageSize },
  });
  const pages = serviceRoutes({
    database,
    metrics,
    metricsToken: config.metricsToken,
    clusterMetrics,
    documentPath: OPENAPI_PATH,
    // Generated once at startup: a route the document cannot describe stops the app here.
    documentJson: JSON.stringify(
      withCodeSamples(buildOpenApiDocument(schema, { origin: config.publicBaseUrl }), OPENAPI_PATH),
    ),
    graphiql: config.graphql.graphiql,
    demoApiKey,
  });
  return createRouter([...pages, graphqlRoute(yoga), ...rest.routes], (pathname) =>
    // Under /api/ the REST API answers, after admission, with a 404 that names the path.
    pathname.startsWith("/api/") ? rest.noOperation : notFound,
  );
}

/** What the startup log says of planned reads: the names planned, and why each other one is executed. */
function planSummary(plans: readonly (readonly [name: string, reason: string | null])[]) {
  return {
    planned: plans.flatMap(([name, reason]) => (reason === null ? [name] : [])),
    executed: Object.fromEntries(
      plans.flatMap(([name, reason]) => (reason === null ? [] : [[name, reason]])),
    ),
  };
}

/** Planned reads over the database; every plan is logged once and counted in /metrics, as is each failure. */
function readPlanning(database: Database, metrics: Metrics, logger: Logger): RestReadPlanning {
  return {
    planner: createReadPlanner({
      schema,
      dataModel: readDataModel(),
      // On the reader each read was given (src/schema/read-on-replica.ts); without a choice, the primary's pool.
      query: (text, values, context, name) =>
        (context.reads?.reader(true) ?? database.reads).selectRows(text, values, name),
    }),
    planned(plans) {
      metrics.observeReadPlans(plans);
      logger.info(
        planSummary(plans.map((plan) => [plan.operationId, plan.reason])),
        "REST reads: planned from rows, or executed",
      );
    },
    failed(operationId, error) {
      metrics.countPlannedReadFailure(operationId);
      logger.error({ err: error, operationId }, "planned read failed; so did the request");
    },
  };
}

/** GraphQL queries answered by the REST reads' planner; logged and counted alike. */
function plannedReads(
  planner: ReadPlanner,
  metrics: Metrics,
  logger: Logger,
  tracing: Tracing | undefined,
): PlannedReads {
  return {
    planner,
    planned(plans) {
      metrics.observeDocumentPlans(plans);
      if (plans.length === 0) return;
      logger.info(
        planSummary(plans.map((plan) => [plan.operation, plan.reason])),
        "persisted GraphQL documents: planned from rows, or executed",
      );
    },
    executed: metrics.countExecutedQuery,
    failed(operation, error) {
      metrics.countPlannedDocumentFailure();
      logger.error(
        { err: error, operation },
        "planned GraphQL read failed; the operation was executed instead",
      );
    },
    inExecution: tracing?.inGraphQLExecution,
  };
}

/** A request's context: its caller, and where its reads run (the admission's read position). */
type ContextFor = (
  viewer: Viewer | null,
  requestId: string,
  position: ReadPosition | null,
  signal?: AbortSignal,
) => GraphQLContext;

/** What every resolver sees, for GraphQL, REST and the events' records alike. */
function graphqlContext(
  config: Pick<AppConfig, "appBaseUrl" | "webhooks">,
  database: Pick<Database, "prisma">,
  orderUpdates: OrderUpdateFeed,
  viewer: Viewer | null,
  requestId: string,
): GraphQLContext {
  return {
    prisma: database.prisma,
    viewer,
    requestId,
    appBaseUrl: config.appBaseUrl,
    orderUpdates,
    webhookEndpoints: webhookEndpointsWith(config.webhooks),
  };
}

/**
 * The webhook worker's renderer: records of any buyers as the REST single
 * reads show them (src/contract/event-records.ts), read inside the worker's
 * transaction, each buyer's records as that buyer.
 */
export function createEventRenderer({
  config,
  database,
  logger,
}: {
  config: Pick<AppConfig, "appBaseUrl" | "webhooks">;
  database: Pick<Database, "prisma" | "listen">;
  /** Told once how each record type is read, and of each batch read that failed. */
  logger?: Logger;
}) {
  const renderRecords = createRecordRenderer(schema, {
    planner: createReadPlanner({
      schema,
      dataModel: readDataModel(),
      // On the worker's transaction (the context's client), so that records are read in its snapshot.
      query: (text, values, context) => selectRowsIn(context.prisma, text, values),
    }),
    planned(plans) {
      logger?.info(
        planSummary(plans.map((plan) => [plan.recordType, plan.reason])),
        "event records: planned from rows, or executed",
      );
    },
    failed(recordType, error) {
      logger?.error(
        { err: error, recordType },
        "planned event record read failed; the records were executed",
      );
    },
  });
  // Rendering never subscribes; the context only needs a feed to have one.
  const orderUpdates = createOrderUpdateFeed(database);
  return (
    tx: Prisma.TransactionClient,
    records: readonly { recordType: string; recordId: string; buyerId: string; changedAt: Date }[],
  ) =>
    renderRecordsOfBuyers(
      renderRecords,
      (buyerId) => ({
        ...graphqlContext(config, database, orderUpdates, { buyerId, apiKeyId: "" }, "webhook-events"),
        prisma: tx as PrismaClient,
      }),
      records,
    );
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
