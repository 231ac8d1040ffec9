// The SDK's tracer provider: the OTLP exporter, the sampler, and the batch
// span processor whose own metrics count the spans exported and dropped.
// Loaded only with the SDK (sdk.ts).
import {
  createNoopMeter,
  type Meter,
  type MeterProvider,
  type Counter as OtelCounter,
} from "@opentelemetry/api";
import { setGlobalErrorHandler } from "@opentelemetry/core";
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
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { Counter } from "prom-client";
import type { Logger } from "../logger.js";
import type { TracingSettings } from "./settings.js";

/** The batch span processor reports each finished batch (and each span it had no room for) here. */
const PROCESSED_SPANS_METRIC = "otel.sdk.processor.span.processed";
/** An unreachable collector fails every export: say so once a minute, not every few seconds. */
const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

/** The `/metrics` counters of spans the collector accepted and spans never delivered. */
export interface SpanExportCounters {
  exported: Counter;
  dropped: Counter<"reason">;
}

export function createSpanExportCounters(): SpanExportCounters {
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
  return { exported, dropped };
}

/** The provider that samples, batches and exports this process's spans, counting them in `counters`. */
export function createTracerProvider(
  settings: TracingSettings,
  counters: SpanExportCounters,
): TracerProvider {
  return new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...settings.resourceAttributes, "service.name": settings.serviceName }),
    ),
    sampler: samplerOf(settings),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: otlpExporterOf(settings),
        scheduledDelayMillis: settings.batch.scheduleDelayMs,
        exportTimeoutMillis: settings.batch.exportTimeoutMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: settings.batch.maxExportBatchSize,
        selfObsMeterProvider: processedSpansMeterProvider((count, errorType) => {
          if (errorType === undefined) counters.exported.inc(count);
          else
            counters.dropped.inc(
              { reason: errorType === "queue_full" ? "queue_full" : "export_failed" },
              count,
            );
        }),
      }),
    ],
  });
}

/** Logs the SDK's errors (failed exports, mostly) as warnings, at most once a minute. */
export function logExportFailures(settings: TracingSettings, logger: Logger): void {
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
}

function otlpExporterOf(settings: TracingSettings): SpanExporter {
  const exporterConfig: OTLPExporterNodeConfigBase = {
    url: settings.tracesUrl,
    headers: settings.headers,
    timeoutMillis: settings.exportTimeoutMs,
    compression: settings.compression === "gzip" ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
  };
  return settings.protocol === "http/json"
    ? new OtlpJsonTraceExporter(exporterConfig)
    : new OtlpProtobufTraceExporter(exporterConfig);
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
