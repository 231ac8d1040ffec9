import type { ErrorCode, FieldError, OperationId } from "./types.js";

/** The RFC 9457 problem body the API answers an error with, as far as the client reads it. */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: FieldError[];
  allowed_statuses?: string[];
}

/**
 * Every refusal of the API. `code` is the problem's stable code, narrowed to
 * the codes `operation` can answer: test with `BuyerApiError.is(error, "updateOrder")`.
 */
export class BuyerApiError<K extends OperationId = OperationId> extends Error {
  override readonly name = "BuyerApiError";
  readonly operation: K;
  readonly status: number;
  readonly code: ErrorCode<K>;
  /** The request id to quote to support: the one of the request that did the work (a replay keeps it). */
  readonly requestId: string | undefined;
  /** Field problems, with the REST spelling of each field (`tag_ids[2]`). */
  readonly errors: FieldError[];
  /** The whole problem body, as answered. */
  readonly problem: ProblemBody;
  /** Seconds the server asked to wait (429, 503) when the client stopped retrying. */
  readonly retryAfter: number | undefined;

  constructor(operation: K, status: number, problem: ProblemBody, headers: Headers) {
    const code = (problem.code ?? "unexpected_response") as ErrorCode<K>;
    super(`${operation}: ${status} ${code}${problem.detail ? `: ${problem.detail}` : ""}`);
    this.operation = operation;
    this.status = status;
    this.code = code;
    this.requestId = problem.request_id ?? headers.get("x-request-id") ?? undefined;
    this.errors = problem.errors ?? [];
    this.problem = problem;
    this.retryAfter = retryAfterSeconds(headers);
  }

  /** Whether `error` is a refusal of `operation`, and then with that operation's codes. */
  static is<K extends OperationId>(error: unknown, operation: K): error is BuyerApiError<K> {
    return error instanceof BuyerApiError && error.operation === operation;
  }
}

/** `Retry-After` in seconds, from delta-seconds or an HTTP date. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
