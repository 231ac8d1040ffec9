// What the app sees of tracing. This file loads no OpenTelemetry code: the
// SDK (sdk.ts) is imported only by startTracing, so with tracing off the
// service runs exactly the code it ran before tracing existed.
import type { DocumentNode, ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.js";
import type { TracingSettings } from "./settings.js";

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
  traceExecution(document: DocumentNode, run: () => Promise<ExecutionResult>): Promise<ExecutionResult>;
  /** Adds the exported/dropped span counters to the app's /metrics. */
  registerMetrics(registry: Registry): void;
  /** Exports what is queued. */
  forceFlush(): Promise<void>;
  /** Exports what is queued, then stops tracing. */
  shutdown(): Promise<void>;
}

export type TracedHandler = (request: Request, span?: RequestSpan) => Promise<Response>;

/**
 * The handler, inside an HTTP span when tracing is on. The server adapter
 * passes a second argument of its own, so the handler never gets it directly.
 */
export function withTracing(
  tracing: Tracing | undefined,
  handler: TracedHandler,
): (request: Request) => Promise<Response> {
  if (!tracing) return (request) => handler(request);
  return (request) => tracing.traceRequest(request, (span) => handler(request, span));
}

/**
 * Starts the OpenTelemetry SDK: OTLP/HTTP export, W3C trace context, Prisma
 * query spans. Call it once per process, before the database is opened.
 */
export async function startTracing(settings: TracingSettings, logger: Logger): Promise<Tracing> {
  const { startSdk } = await import("./sdk.js");
  return startSdk(settings, logger);
}
