import type { createCors } from "../response-headers.js";
import type { Stage } from "./exchange.js";

/**
 * CORS for the configured origins: a preflight is answered here, before
 * anything looks at a key; every other answer, an error's too, names the
 * allowed origin.
 */
export function cors(policy: ReturnType<typeof createCors>): Stage {
  return async (exchange, next) => {
    const response = policy.preflight(exchange.request) ?? (await next(exchange));
    policy.decorate(exchange.request, response);
    return response;
  };
}
