import type { Compression } from "../compression.js";
import type { ConditionalGets } from "../conditional-get.js";
import { readState } from "./conditional-get.js";
import type { Stage } from "./exchange.js";

/**
 * A versioned read is answered from the response cache while the buyer's
 * data is unchanged since it was stored, in the coding the request prefers;
 * otherwise the endpoint answers and a 200 is kept for next time. Either
 * answer carries its ETag.
 */
export function responseCache({
  conditionalGets,
  compression,
}: {
  conditionalGets: ConditionalGets;
  compression: Compression;
}): Stage {
  return async (exchange, next) => {
    const { admission } = exchange;
    if (!exchange.versionedRead || !admission) return next(exchange);
    return conditionalGets.serve(
      exchange.url,
      readState(admission),
      () => next(exchange),
      exchange.whenSent,
      compression.acceptedBy(exchange.request),
    );
  };
}
