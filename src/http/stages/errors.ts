import {
  isDatabaseUnreachable,
  UNREACHABLE_MESSAGE,
  UNREACHABLE_RETRY_AFTER_SECONDS,
} from "../../db/unreachable.js";
import { type Problem, problemResponse } from "../problem.js";
import type { Stage } from "./exchange.js";

/** Status counted and logged for a request whose client hung up before the answer (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

const INTERNAL: Problem = {
  status: 500,
  code: "internal",
  detail: "An unexpected error occurred; quote the request id",
};

const UNAVAILABLE: Problem = {
  status: 503,
  code: "unavailable",
  detail: UNREACHABLE_MESSAGE,
  headers: { "retry-after": String(UNREACHABLE_RETRY_AFTER_SECONDS) },
};

/**
 * An error no stage within expected becomes a 500 that discloses nothing but
 * the request id; one that says the database cannot be reached (the API key's
 * lookup is the first to meet it) a 503 with `Retry-After`, as readiness
 * reports it. A client that hangs up mid-request is not a fault of ours: it
 * is not logged as one, and is counted as 499, so the 5xx rate stays true.
 * The endpoint words the problem its own way where it has one (GraphQL's
 * `extensions.code`).
 */
export function unexpectedErrors(logUnexpected: (error: unknown, requestId: string) => void): Stage {
  return async (exchange, next) => {
    try {
      return await next(exchange);
    } catch (error) {
      const { request, requestId } = exchange;
      const clientClosed = request.signal.aborted;
      if (!clientClosed) logUnexpected(error, requestId);
      const problem = isDatabaseUnreachable(error) ? UNAVAILABLE : INTERNAL;
      exchange.recordedStatus = clientClosed ? CLIENT_CLOSED_REQUEST : problem.status;
      return (
        exchange.route.target.problemResponse?.(problem, requestId) ?? problemResponse(problem, requestId)
      );
    }
  };
}
