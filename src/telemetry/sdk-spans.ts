// The spans this service starts itself: one per HTTP request, one per
// planned REST execution, one per webhook delivery attempt, and the
// GraphQL parse and validate phases. Loaded only with the SDK (sdk.ts).
import {
  type Attributes,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { RequestSpan, WebhookAttemptOutcome, WebhookDeliverySpan } from "./tracing-types.js";

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * Runs `handle` inside the request's server span, a child of the caller's
 * trace when `propagator` continues incoming traces.
 */
export function traceRequestIn(
  tracer: Tracer,
  propagator: TextMapPropagator<Headers> | null,
  request: Request,
  handle: (span: RequestSpan) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  const parent = propagator ? propagator.extract(ROOT_CONTEXT, request.headers, headerGetter) : ROOT_CONTEXT;
  // Only the method and path: headers (the API key), the query string and bodies are never recorded.
  const attributes: Attributes = {
    "http.request.method": request.method,
    "url.scheme": url.protocol.replace(/:$/, ""),
    "url.path": url.pathname,
  };
  return tracer.startActiveSpan(
    request.method,
    { kind: SpanKind.SERVER, attributes },
    parent,
    async (span): Promise<Response> => {
      let ended = false;
      const requestSpan: RequestSpan = {
        traceId: span.spanContext().traceId,
        end({ route, status, buyerId, requestId }) {
          if (ended) return;
          ended = true;
          if (route) {
            span.updateName(`${request.method} ${route}`);
            span.setAttribute("http.route", route);
          }
          span.setAttribute("http.response.status_code", status);
          span.setAttribute("app.request_id", requestId);
          if (buyerId) span.setAttribute("app.buyer_id", buyerId);
          if (status >= 500) {
            span.setAttribute("error.type", String(status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
      try {
        return await handle(requestSpan);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        if (!ended) {
          ended = true;
          span.end();
        }
      }
    },
  );
}

function hasErrors(result: unknown): boolean {
  return (
    typeof result === "object" &&
    result !== null &&
    "errors" in result &&
    Array.isArray(result.errors) &&
    result.errors.length > 0
  );
}

/** Runs a REST route's operation (planned read, or executed document) inside an execute span. */
export function tracePlannedExecution<Result>(
  tracer: Tracer,
  operation: OperationDefinitionNode,
  run: () => Promise<Result>,
): Promise<Result> {
  const type = operation.operation;
  const name = operation.name?.value ?? "anonymous";
  // Named and attributed like the /graphql execute spans, so both read alike.
  return tracer.startActiveSpan(
    `${type}.${name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "graphql.execute.operationName": name,
        "graphql.execute.operationType": type,
        "graphql.execute.planned": true,
      },
    },
    async (span) => {
      try {
        const result = await run();
        if (hasErrors(result)) span.setStatus({ code: SpanStatusCode.ERROR });
        return result;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Runs one webhook delivery attempt inside a client span. */
export function traceWebhookDeliveryIn<Outcome extends WebhookAttemptOutcome>(
  tracer: Tracer,
  delivery: WebhookDeliverySpan,
  run: () => Promise<Outcome>,
): Promise<Outcome> {
  return tracer.startActiveSpan(
    "webhook deliver",
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "app.webhook.delivery_id": delivery.deliveryId,
        "app.webhook.event_id": delivery.eventId,
        "app.webhook.event_type": delivery.eventType,
        "app.webhook.endpoint_id": delivery.endpointId,
        "server.address": delivery.host,
      },
    },
    async (span) => {
      try {
        const outcome = await run();
        if (outcome.statusCode !== null) span.setAttribute("http.response.status_code", outcome.statusCode);
        if (outcome.error || outcome.statusCode === null || outcome.statusCode >= 300) {
          span.setAttribute(
            "error.type",
            outcome.statusCode === null ? "no_answer" : String(outcome.statusCode),
          );
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? undefined });
        }
        return outcome;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A Yoga plugin with a span for each GraphQL parse and validate, the latter failed when the document is invalid. */
export function graphqlPhaseSpans(tracer: Tracer): Plugin {
  const phaseSpan =
    (name: string) =>
    (_payload: unknown, wrapped: () => void): void =>
      tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL }, (span) => {
        try {
          wrapped();
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
  return {
    instrumentation: { parse: phaseSpan("graphql.parse"), validate: phaseSpan("graphql.validate") },
    onValidate:
      () =>
      ({ valid }) => {
        if (!valid) trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
      },
  };
}
