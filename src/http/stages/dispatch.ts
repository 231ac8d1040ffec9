import type { Exchange } from "./exchange.js";

/** The last step: the endpoint the router matched (REST, GraphQL, a page, health) answers. */
export function dispatch(exchange: Exchange): Promise<Response> {
  return exchange.route.target.handle(exchange);
}
