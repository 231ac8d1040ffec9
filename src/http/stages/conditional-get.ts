import type { Admission, Gate } from "../admission.js";
import type { ConditionalGets, ReadState } from "../conditional-get.js";
import type { Stage } from "./exchange.js";

/** Whose data a read shows, at which version of what it can show. */
export function readState(admission: Pick<Admission, "viewer" | "readVersion">): ReadState {
  return { buyerId: admission.viewer.buyerId, version: admission.readVersion };
}

/**
 * A request whose If-None-Match named its read's current version was
 * admitted uncounted: it gets a 304, free, unless the tag was another URL's;
 * then it is counted after all and goes on.
 */
export function conditionalGet({
  gate,
  conditionalGets,
}: {
  gate: Gate;
  conditionalGets: ConditionalGets;
}): Stage {
  return async (exchange, next) => {
    const { admission } = exchange;
    if (!admission || admission.counted) return next(exchange);
    const notModified = conditionalGets.notModified(exchange.request, exchange.url, readState(admission));
    if (notModified) return notModified;
    exchange.admission = await gate.count(admission);
    return next(exchange);
  };
}
