import { type DocumentNode, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

const STATIC_ROUTES = new Set(["/healthz", "/readyz", "/graphql", "/metrics", "/docs"]);

/**
 * Labels a request path by the route it matches (`/orders/{id}`, as given by
 * the caller, e.g. from the REST route table); anything else is one label, so
 * a scanner cannot explode the series.
 */
function createRouteLabeler(routePaths: readonly string[]): (pathname: string) => string {
  const patterns = routePaths.map((label) => ({
    label,
    pattern: new RegExp(`^${label.replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  return (pathname) => {
    if (STATIC_ROUTES.has(pathname)) return pathname;
    return patterns.find((route) => route.pattern.test(pathname))?.label ?? "unmatched";
  };
}

export interface Metrics {
  registry: Registry;
  /** The route a request path matches, as metrics and traces label it; "unmatched" for any other path. */
  routeLabel(pathname: string): string;
  observeRequest(pathname: string, method: string, status: number, seconds: number): void;
  /** Counts GraphQL operations by type and outcome. */
  graphqlPlugin: Plugin;
}

/** Prometheus metrics of this process: requests, latency, GraphQL operations and the runtime. */
export function createMetrics(options: { routePaths: readonly string[] }): Metrics {
  const routeLabel = createRouteLabeler(options.routePaths);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route and method",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const operations = new Counter({
    name: "graphql_operations_total",
    // Operation names are the client's to choose, so they are not a label.
    help: "GraphQL operations executed through /graphql, by type and outcome",
    labelNames: ["type", "outcome"] as const,
    registers: [registry],
  });
  return {
    registry,
    routeLabel,
    observeRequest(pathname, method, status, seconds) {
      const route = routeLabel(pathname);
      requests.inc({ route, method, status: String(status) });
      duration.observe({ route, method }, seconds);
    },
    graphqlPlugin: {
      onExecute({ args }) {
        const type =
          getOperationAST(args.document as DocumentNode, args.operationName)?.operation ?? "unknown";
        return {
          onExecuteDone({ result }) {
            const failed = "errors" in result && Array.isArray(result.errors) && result.errors.length > 0;
            operations.inc({ type, outcome: failed ? "error" : "ok" });
          },
        };
      },
    },
  };
}

/**
 * How one worker of several answers GET /metrics for all of them: it offers
 * its registry to the collection and returns every worker's metrics summed
 * (src/server/cluster-metrics.ts).
 */
export interface ClusterMetrics {
  share(registry: Registry): void;
  /** Every worker's metrics, summed, in the registry's text format. */
  collect(): Promise<string>;
}
