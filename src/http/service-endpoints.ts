import { timingSafeEqual } from "node:crypto";
import type { Database } from "../db/database.js";
import { apiReferencePaths, createApiReference } from "./api-reference.js";
import { createHomePage, HOME_PATH } from "./home-page.js";
import type { ClusterMetrics, Metrics } from "./metrics.js";
import { problemResponse } from "./problem.js";
import type { Route } from "./router.js";
import type { Endpoint, Exchange } from "./stages/exchange.js";
import { notFoundResponse } from "./stages/not-found.js";

export interface ServiceEndpointOptions {
  database: Pick<Database, "ping" | "replicas">;
  metrics: Pick<Metrics, "registry">;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** In a worker of several: GET /metrics answers for all of them. */
  clusterMetrics?: ClusterMetrics;
  /** Where the OpenAPI document is served, and its text. */
  documentPath: string;
  documentJson: string;
  /** Whether GET /graphql shows GraphiQL, for the front page's links. */
  graphiql: boolean;
  demoApiKey?: string;
}

/** An endpoint that needs no key. */
const open = (handle: (exchange: Exchange) => Response | Promise<Response>): Endpoint => ({
  admits: false,
  versionedGet: false,
  handle: async (exchange) => handle(exchange),
});

/** The routes beside the APIs: health, readiness, metrics, the front page and the API reference. */
export function serviceRoutes(options: ServiceEndpointOptions): Route<Endpoint>[] {
  const { database, metrics, metricsToken, clusterMetrics } = options;
  // Generated once at startup, like the document it shows.
  const reference = createApiReference(options);
  const home = createHomePage(options);
  const page = open(
    ({ request, url, requestId }) => reference(request, url, requestId) ?? notFoundResponse(requestId),
  );
  return [
    { template: "/healthz", target: open(() => Response.json({ status: "ok" })) },
    {
      template: "/readyz",
      target: open(async () => {
        const ready = await database.ping();
        // Replicas are listed, never a reason for 503: reads go to the primary without them.
        const replicas = database
          .replicas()
          .map(({ name, state, reason }) => (reason === null ? { name, state } : { name, state, reason }));
        return Response.json(
          { status: ready ? "ready" : "unavailable", ...(replicas.length ? { replicas } : {}) },
          { status: ready ? 200 : 503 },
        );
      }),
    },
    {
      template: "/metrics",
      target: open(async ({ request, requestId }) => {
        if (metricsToken && !safeEqual(request.headers.get("authorization") ?? "", `Bearer ${metricsToken}`))
          return problemResponse(
            {
              status: 401,
              code: "unauthenticated",
              detail: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>",
            },
            requestId,
          );
        return new Response(await (clusterMetrics?.collect() ?? metrics.registry.metrics()), {
          headers: { "content-type": metrics.registry.contentType },
        });
      }),
    },
    { template: HOME_PATH, target: open(({ request, url, requestId }) => home(request, url, requestId)) },
    ...apiReferencePaths(options.documentPath).map((template) => ({ template, target: page })),
  ];
}

/** Compares secrets in constant time, so their content cannot be guessed from timing. */
function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
