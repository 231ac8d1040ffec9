// What the app sees of tracing. This file loads no OpenTelemetry code: the
// SDK (sdk.ts) is imported only by startTracing, so with tracing off the
// service runs exactly the code it ran before tracing existed.
import type { Logger } from "../logger.js";
import type { TracingSettings } from "./settings.js";
import type { RequestSpan, Tracing } from "./tracing-types.js";

export type { RequestOutcome, RequestSpan, Tracing } from "./tracing-types.js";

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
