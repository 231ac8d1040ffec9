// The shapes the app and the SDK agree on, apart from both so that the SDK,
// loaded only when tracing is on, does not import the module that loads it.
import type { ExecutionResult, OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Registry } from "prom-client";

/** What the request handler tells the HTTP span once it has its response. */
export interface RequestOutcome {
  /** The route template (`/api/public/buyer/v1/orders/{id}`), or null when no route matched. */
  route: string | null;
  status: number;
  buyerId: string | null;
  requestId: string;
}

/** The span of one HTTP request, continued from the caller's `traceparent` when it sent one. */
export interface RequestSpan {
  /** For the request's log line. */
  readonly traceId: string;
  end(outcome: RequestOutcome): void;
}

export interface Tracing {
  /** Runs `handle` as the active HTTP span: spans started inside it are its children. */
  traceRequest(request: Request, handle: (span: RequestSpan) => Promise<Response>): Promise<Response>;
  /** Parse, validate and execute spans for /graphql (Yoga/envelop plugins). */
  graphqlPlugins: Plugin[];
  /** An execute span around a REST route's compiled (graphql-jit) operation. */
  traceExecution(
    operation: OperationDefinitionNode,
    run: () => Promise<ExecutionResult>,
  ): Promise<ExecutionResult>;
  /** Adds the exported/dropped span counters to the app's /metrics. */
  registerMetrics(registry: Registry): void;
  /** Exports what is queued. */
  forceFlush(): Promise<void>;
  /** Exports what is queued, then stops tracing. */
  shutdown(): Promise<void>;
}
