import type { Compression } from "../compression.js";
import type { Stage } from "./exchange.js";

/** Answers in the coding the request prefers (src/http/compression.ts says which answers are coded). */
export function compress(compression: Compression): Stage {
  return async (exchange, next) => compression.compress(exchange.request, await next(exchange));
}
