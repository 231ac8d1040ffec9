import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

// The tracer the SDK registers when tracing is on; without it the API hands out no-ops.
const tracer = trace.getTracer("buyer-public-api");

/** Whether a statement sent now would be a span of a recorded trace. */
export function statementTraced(): boolean {
  return trace.getSpan(context.active())?.isRecording() === true;
}

/**
 * Runs a statement sent straight to a `pg` pool as a client span of the
 * request that sent it, as Prisma's instrumentation does for its own
 * statements: on PostgreSQL, admission and planned reads bypass Prisma and
 * would otherwise be missing from the request's trace. Nothing is started
 * outside a recording span, so with tracing off this is one context lookup.
 */
export function inStatementSpan<Result>(
  text: string,
  name: string | undefined,
  run: () => Promise<Result>,
): Promise<Result> {
  if (!statementTraced()) return run();
  return tracer.startActiveSpan(
    name ? `postgresql ${name}` : "postgresql",
    {
      kind: SpanKind.CLIENT,
      // Parameters may hold customer data: never recorded.
      attributes: { "db.system.name": "postgresql", "db.query.text": text },
    },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
