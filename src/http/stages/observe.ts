import type { Logger } from "../../logger.js";
import type { Metrics } from "../metrics.js";
import type { Stage } from "./exchange.js";

/** The label of a request no route matched, so that a scanner cannot explode the series. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The outermost stage: once the answer is made, each request is counted and
 * timed in /metrics, ends its span and is logged, all labelled with the
 * router's template.
 */
export function observe({
  metrics,
  logger,
}: {
  metrics: Pick<Metrics, "observeRequest">;
  logger: Logger;
}): Stage {
  return async (exchange, next) => {
    const started = performance.now();
    const response = await next(exchange);
    const seconds = (performance.now() - started) / 1000;
    const { request, requestId, route, span } = exchange;
    const status = exchange.recordedStatus ?? response.status;
    const buyerId = exchange.admission?.viewer.buyerId ?? null;
    metrics.observeRequest(route.template ?? UNMATCHED_ROUTE, request.method, status, seconds);
    span?.end({ route: route.template, status, buyerId, requestId });
    logger.info(
      {
        requestId,
        method: request.method,
        path: exchange.url.pathname,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        buyerId,
        ...(span ? { traceId: span.traceId } : {}),
      },
      "request",
    );
    return response;
  };
}
