import type { Gate } from "../admission.js";
import type { ConditionalGets } from "../conditional-get.js";
import type { RateLimitDecision } from "../rate-limiter.js";
import type { Stage } from "./exchange.js";

/**
 * The API's requests are admitted here: the key names the caller (none or a
 * wrong one leaves `admission` null, for the endpoint to refuse), and the
 * request is counted against the caller's rate limit in the same statement,
 * unless its If-None-Match claims the current version of what it reads (see the
 * conditional-get stage). Every answer to an admitted request says where the
 * caller stands.
 */
export function admission({
  gate,
  conditionalGets,
}: {
  gate: Gate;
  conditionalGets: ConditionalGets;
}): Stage {
  return async (exchange, next) => {
    if (!exchange.route.target.admits) return next(exchange);
    const { request } = exchange;
    const { versionedRead } = exchange;
    const claimed = versionedRead ? conditionalGets.claimedVersions(request) : [];
    const recordTypes = versionedRead ? (exchange.route.target.versionedRecordTypes ?? null) : null;
    exchange.admission = await gate.admit(request.headers.get("x-api-key"), claimed, recordTypes);
    const response = await next(exchange);
    // The standing as the later stages left it: counted, unless a 304 was free.
    return exchange.admission ? withRateLimitHeaders(response, exchange.admission.limit) : response;
  };
}

function withRateLimitHeaders(response: Response, limit: RateLimitDecision): Response {
  response.headers.set("ratelimit-limit", String(limit.limit));
  response.headers.set("ratelimit-remaining", String(limit.remaining));
  response.headers.set("ratelimit-reset", String(limit.resetSeconds));
  return response;
}
