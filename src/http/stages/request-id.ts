import type { Stage } from "./exchange.js";

/** Every answer names its request, so that a caller can quote it and find it in the log. */
export const requestIdHeader: Stage = async (exchange, next) => {
  const response = await next(exchange);
  response.headers.set("x-request-id", exchange.requestId);
  return response;
};
