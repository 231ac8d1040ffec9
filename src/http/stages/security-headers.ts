import { addSecurityHeaders } from "../response-headers.js";
import type { Stage } from "./exchange.js";

/** Every answer, an error's too, carries the headers that keep browsers from framing, sniffing or storing it. */
export const securityHeaders: Stage = async (exchange, next) => {
  const response = await next(exchange);
  addSecurityHeaders(response);
  return response;
};
