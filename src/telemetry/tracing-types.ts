// The shapes the app and the SDK agree on, apart from both so that the SDK,
// loaded only when tracing is on, does not import the module that loads it.
import type { OperationDefinitionNode } from "graphql";
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

/** What a webhook delivery span records: ids and the event type, never the URL's secrets or the body. */
export interface WebhookDeliverySpan {
  deliveryId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  /** The receiver's host; the path and query may carry a token. */
  host: string;
}

export interface WebhookAttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

export interface Tracing {
  /** Runs `handle` as the active HTTP span: spans started inside it are its children. */
  traceRequest(request: Request, handle: (span: RequestSpan) => Promise<Response>): Promise<Response>;
  /** Parse, validate and execute spans for /graphql (Yoga/envelop plugins). */
  graphqlPlugins: Plugin[];
  /**
   * An execute span around a REST route's operation: its planned read, or
   * its executed document (an ExecutionResult with errors marks it failed).
   */
  traceExecution<Result>(operation: OperationDefinitionNode, run: () => Promise<Result>): Promise<Result>;
  /** Runs `run` inside the execute span /graphql started for the operation whose context is `contextValue`. */
  inGraphQLExecution<Result>(contextValue: object, run: () => Promise<Result>): Promise<Result>;
  /** A client span around one webhook delivery attempt (the worker's own trace). */
  traceWebhookDelivery<Outcome extends WebhookAttemptOutcome>(
    delivery: WebhookDeliverySpan,
    run: () => Promise<Outcome>,
  ): Promise<Outcome>;
  /** Adds the exported/dropped span counters to the app's /metrics. */
  registerMetrics(registry: Registry): void;
  /** Exports what is queued. */
  forceFlush(): Promise<void>;
  /** Exports what is queued, then stops tracing. */
  shutdown(): Promise<void>;
}
