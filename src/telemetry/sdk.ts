// The OpenTelemetry SDK, loaded only when tracing is on (see tracing.ts).
import { otelContextMap, useOpenTelemetry } from "@envelop/opentelemetry";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import type { Plugin } from "graphql-yoga";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.js";
import { createSpanExportCounters, createTracerProvider, logExportFailures } from "./sdk-provider.js";
import {
  graphqlPhaseSpans,
  tracePlannedExecution,
  traceRequestIn,
  traceWebhookDeliveryIn,
} from "./sdk-spans.js";
import type { TracingSettings } from "./settings.js";
import type { Tracing } from "./tracing-types.js";

const TRACER_NAME = "buyer-public-api";

export function startSdk(settings: TracingSettings, logger: Logger): Tracing {
  const counters = createSpanExportCounters();
  const provider = createTracerProvider(settings, counters);
  // Spans started inside a span's callback become its children across awaits.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  logExportFailures(settings, logger);

  const prisma = new PrismaInstrumentation({ enabled: false });
  prisma.setTracerProvider(provider);
  prisma.enable();

  const tracer = provider.getTracer(TRACER_NAME);
  const propagator = settings.continueIncomingTraces ? new W3CTraceContextPropagator() : null;
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
    traceRequest: (request, handle) => traceRequestIn(tracer, propagator, request, handle),
    graphqlPlugins: [graphqlPhaseSpans(tracer), execution],
    traceExecution: (operation, run) => tracePlannedExecution(tracer, operation, run),
    inGraphQLExecution: (contextValue, run) =>
      context.with(otelContextMap.get(contextValue) ?? context.active(), run),
    traceWebhookDelivery: (delivery, run) => traceWebhookDeliveryIn(tracer, delivery, run),
    registerMetrics(registry: Registry) {
      registry.registerMetric(counters.exported);
      registry.registerMetric(counters.dropped);
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
