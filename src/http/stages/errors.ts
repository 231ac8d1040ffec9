import { problemResponse } from "../problem.js";
import type { Stage } from "./exchange.js";

/** Status counted and logged for a request whose client hung up before the answer (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * An error no stage within expected becomes a 500 that discloses nothing but
 * the request id. A client that hangs up mid-request is not a fault of ours:
 * it is not logged as one, and is counted as 499, so the 5xx rate stays true.
 */
export function unexpectedErrors(logUnexpected: (error: unknown, requestId: string) => void): Stage {
  return async (exchange, next) => {
    try {
      return await next(exchange);
    } catch (error) {
      const { request, requestId } = exchange;
      const clientClosed = request.signal.aborted;
      if (!clientClosed) logUnexpected(error, requestId);
      exchange.recordedStatus = clientClosed ? CLIENT_CLOSED_REQUEST : 500;
      return problemResponse(
        { status: 500, code: "internal", detail: "An unexpected error occurred; quote the request id" },
        requestId,
      );
    }
  };
}
