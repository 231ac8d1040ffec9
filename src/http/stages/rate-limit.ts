import { problemResponse } from "../problem.js";
import type { Stage } from "./exchange.js";

/** A caller past its requests per minute is refused with 429 and told when to retry. */
export const rateLimit: Stage = async (exchange, next) => {
  const limit = exchange.admission?.limit;
  if (!limit || limit.allowed) return next(exchange);
  return problemResponse(
    {
      status: 429,
      code: "rate_limited",
      detail: `More than ${limit.limit} requests in a minute; retry after ${limit.resetSeconds} s`,
      headers: { "retry-after": String(limit.resetSeconds) },
    },
    exchange.requestId,
  );
};
