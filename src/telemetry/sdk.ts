// The OpenTelemetry SDK, loaded only when tracing is on (see tracing.ts).
import { useOpenTelemetry } from "@envelop/opentelemetry";
import {
  type Attributes,
  context,
  createNoopMeter,
  type Meter,
  type MeterProvider,
  type Counter as OtelCounter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { setGlobalErrorHandler, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as OtlpJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { CompressionAlgorithm, type OTLPExporterNodeConfigBase } from "@opentelemetry/otlp-exporter-base";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import type { ExecutionResult, OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, type Registry } from "prom-client";
import type { Logger } from "../logger.js";
import type { TracingSettings } from "./settings.js";
import type { RequestSpan, Tracing } from "./tracing-types.js";

const TRACER_NAME = "buyer-public-api";
/** The batch span processor reports each finished batch (and each span it had no room for) here. */
const PROCESSED_SPANS_METRIC = "otel.sdk.processor.span.processed";
/** An unreachable collector fails every export: say so once a minute, not every few seconds. */
const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

export function startSdk(settings: TracingSettings, logger: Logger): Tracing {
  const exported = new Counter({
    name: "tracing_spans_exported_total",
    help: "Spans the OTLP collector accepted",
    registers: [],
  });
  const dropped = new Counter({
    name: "tracing_spans_dropped_total",
    help: "Spans never delivered: the export queue was full (queue_full) or the collector failed or did not answer (export_failed)",
    labelNames: ["reason"] as const,
    registers: [],
  });
  dropped.inc({ reason: "queue_full" }, 0);
  dropped.inc({ reason: "export_failed" }, 0);

  const exporterConfig: OTLPExporterNodeConfigBase = {
    url: settings.tracesUrl,
    headers: settings.headers,
    timeoutMillis: settings.exportTimeoutMs,
    compression: settings.compression === "gzip" ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
  };
  const exporter =
    settings.protocol === "http/json"
      ? new OtlpJsonTraceExporter(exporterConfig)
      : new OtlpProtobufTraceExporter(exporterConfig);
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...settings.resourceAttributes, "service.name": settings.serviceName }),
    ),
    sampler: samplerOf(settings),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: settings.batch.scheduleDelayMs,
        exportTimeoutMillis: settings.batch.exportTimeoutMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: settings.batch.maxExportBatchSize,
        selfObsMeterProvider: processedSpansMeterProvider((count, errorType) => {
          if (errorType === undefined) exported.inc(count);
          else dropped.inc({ reason: errorType === "queue_full" ? "queue_full" : "export_failed" }, count);
        }),
      }),
    ],
  });
  // Spans started inside a span's callback become its children across awaits.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  let lastFailureLoggedAt = -Infinity;
  setGlobalErrorHandler((error) => {
    const now = Date.now();
    if (now - lastFailureLoggedAt < EXPORT_FAILURE_LOG_INTERVAL_MS) return;
    lastFailureLoggedAt = now;
    logger.warn(
      { err: error, collector: settings.tracesUrl },
      "tracing: span export failed; spans are dropped and counted in tracing_spans_dropped_total",
    );
  });

  const prisma = new PrismaInstrumentation({ enabled: false });
  prisma.setTracerProvider(provider);
  prisma.enable();

  const tracer = provider.getTracer(TRACER_NAME);
  const propagator = settings.continueIncomingTraces ? new W3CTraceContextPropagator() : null;

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
  const phases: Plugin = {
    instrumentation: { parse: phaseSpan("graphql.parse"), validate: phaseSpan("graphql.validate") },
    onValidate:
      () =>
      ({ valid }) => {
        if (!valid) trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
      },
  };
  // An envelop plugin typed with its own context; Yoga runs envelop plugins as they are.
  const execution = useOpenTelemetry(
    // Variables and results may hold customer data: never recorded.
    { resolvers: false, variables: false, result: false },
    provider,
    SpanKind.INTERNAL,
    {},
    TRACER_NAME,
  ) as Plugin;

  return {
    traceRequest(request, handle) {
      const url = new URL(request.url);
      const parent = propagator
        ? propagator.extract(ROOT_CONTEXT, request.headers, headerGetter)
        : ROOT_CONTEXT;
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
    },
    graphqlPlugins: [phases, execution],
    traceExecution(
      operation: OperationDefinitionNode,
      run: () => Promise<ExecutionResult>,
    ): Promise<ExecutionResult> {
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
            "graphql.execute.compiled": true,
          },
        },
        async (span) => {
          try {
            const result = await run();
            if (result.errors?.length) span.setStatus({ code: SpanStatusCode.ERROR });
            return result;
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    traceWebhookDelivery(delivery, run) {
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
            if (outcome.statusCode !== null)
              span.setAttribute("http.response.status_code", outcome.statusCode);
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
    },
    registerMetrics(registry: Registry) {
      registry.registerMetric(exported);
      registry.registerMetric(dropped);
    },
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      prisma.disable();
      // A collector that does not answer must not hold up the process's exit.
      let timer: NodeJS.Timeout | undefined;
      const giveUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, settings.exportTimeoutMs);
      });
      await Promise.race([provider.shutdown(), giveUp]);
      clearTimeout(timer);
    },
  };
}

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
  }
}

/**
 * A MeterProvider for the batch span processor's own metrics that reports
 * how many spans each batch held and why they failed, if they did (the
 * `error.type` attribute: `queue_full`, or the export error's name).
 */
function processedSpansMeterProvider(
  onProcessed: (count: number, errorType: string | undefined) => void,
): MeterProvider {
  const noop = createNoopMeter();
  const processed: OtelCounter = {
    add(count, attributes) {
      const errorType = attributes?.["error.type"];
      onProcessed(count, errorType === undefined ? undefined : String(errorType));
    },
  };
  const meter: Meter = Object.create(noop, {
    createCounter: {
      value: (name: string, options?: Parameters<Meter["createCounter"]>[1]) =>
        name === PROCESSED_SPANS_METRIC ? processed : noop.createCounter(name, options),
    },
  });
  return { getMeter: () => meter };
}
