import type { AuthFailureLimit, Gate } from "../admission.js";
import { problemResponse } from "../problem.js";
import type { RateLimitDecision } from "../rate-limiter.js";
import type { Stage } from "./exchange.js";

/**
 * Failed authentications per client address. An address over its limit is
 * refused at the API before any key lookup or body read, so guessing keys
 * costs it more than it costs us; a key this process admitted lately still
 * passes (colleagues behind one NAT). Every 401, the API's or /metrics',
 * counts against the address; past the limit it becomes a 429.
 */
export function failedAuthLimit({
  authFailures,
  gate,
}: {
  authFailures: AuthFailureLimit;
  gate: Gate;
}): Stage {
  return async (exchange, next) => {
    const { clientAddress, requestId } = exchange;
    if (clientAddress === null) return next(exchange);
    if (exchange.route.target.admits) {
      const refused = authFailures.refusal(clientAddress);
      if (refused && !gate.admittedLately(exchange.request.headers.get("x-api-key")))
        return tooManyFailures(refused, requestId);
    }
    const response = await next(exchange);
    if (response.status !== 401) return response;
    const standing = await authFailures.record(clientAddress);
    if (standing.allowed) return response;
    await response.body?.cancel();
    return tooManyFailures(standing, requestId);
  };
}

function tooManyFailures(limit: RateLimitDecision, requestId: string): Response {
  return problemResponse(
    {
      status: 429,
      code: "rate_limited",
      detail: `More than ${limit.limit} failed authentications from this address in a minute; retry after ${limit.resetSeconds} s`,
      headers: { "retry-after": String(limit.resetSeconds) },
    },
    requestId,
  );
}
