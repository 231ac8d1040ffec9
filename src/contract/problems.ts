import type { FieldError } from "../http/problem.js";

// The problem catalogue of docs/design/decisions.md §2 "Statuses and codes": every
// `code` a REST problem can carry, its status, which requests can meet it, and
// an example. The OpenAPI generator (src/openapi/problems.ts) writes the
// reference's table and each operation's problem responses from it.

/** Every `code` a REST problem can carry. */
export type ProblemCode = keyof typeof CATALOGUE;

export interface ProblemExample {
  detail: string;
  errors?: FieldError[];
  allowed_statuses?: string[];
}

export interface ProblemEntry {
  status: number;
  /**
   * Which requests can meet it before or after their operation runs (docs/design/decisions.md §2
   * "Order of checks"): every one, those with an id in the path, with a body, or POSTs.
   * Without it, only the operations that list it.
   */
  on?: "any" | "path id" | "body" | "POST";
  /**
   * Answered by the HTTP server before the request reaches a route (docs/design/decisions.md §2
   * "Statuses and codes"): no API key has been read, so no rate-limit headers.
   */
  beforeRouting?: true;
  /** When it happens, in general; an operation may say it more precisely. */
  when: string;
  example: ProblemExample;
}

const CATALOGUE = {
  bad_request: {
    status: 400,
    on: "any",
    beforeRouting: true,
    when: "The request is not one HTTP can route: a target that is not a path, a `Host` header that is not a host, or bytes that are not HTTP/1.1.",
    example: { detail: "The request target must be a path starting with /" },
  },
  invalid_json: {
    status: 400,
    on: "body",
    when: "The body is not JSON, or not a JSON object.",
    example: { detail: "The request body is not valid JSON" },
  },
  unknown_parameter: {
    status: 400,
    on: "any",
    when: "The query string has a parameter the operation does not take; the detail names those it takes.",
    example: {
      detail:
        "Unknown query parameter `status`: GET /api/public/buyer/v1/orders takes `limit`, `cursor`, `created_at_from`, `created_at_to`, `order_status[]`",
    },
  },
  unauthenticated: {
    status: 401,
    on: "any",
    when: "`X-API-KEY` is missing, unknown or revoked; the body is the same for all three.",
    example: { detail: "A valid X-API-KEY header is required" },
  },
  not_found: {
    status: 404,
    on: "path id",
    when: "The id in the path names no record of your organisation: it is neither the UUID nor, where the operation takes one, the global ID of one.",
    example: { detail: "Order not found" },
  },
  request_timeout: {
    status: 408,
    on: "any",
    beforeRouting: true,
    when: "The request did not arrive in full within the server's time limit; send it again.",
    example: { detail: "The request took too long to arrive" },
  },
  method_not_allowed: {
    status: 405,
    when: "The path exists but not with this method; `Allow` lists the methods it has.",
    example: { detail: "DELETE is not allowed here; use GET" },
  },
  invalid_transition: {
    status: 409,
    when: "The order's status cannot change as asked; `allowed_statuses` lists where it can go.",
    example: {
      detail:
        "An order cannot move from in_transit to order_placed; allowed next statuses: in_warehouse, shipped, in_port, delivered",
      allowed_statuses: ["in_warehouse", "shipped", "in_port", "delivered"],
    },
  },
  already_exists: {
    status: 409,
    when: "The record already exists.",
    example: { detail: "A user with this email already exists under this supplier" },
  },
  endpoint_disabled: {
    status: 409,
    when: "The webhook endpoint is disabled.",
    example: {
      detail: "The webhook endpoint is disabled; enable it (status enabled) before redelivering to it",
    },
  },
  idempotency_request_in_progress: {
    status: 409,
    on: "POST",
    when: "A request with this `Idempotency-Key` is still being processed; retry shortly.",
    example: { detail: "A request with this Idempotency-Key is still being processed; retry shortly" },
  },
  precondition_failed: {
    status: 412,
    when: "`If-Match` names no current ETag of the record: it changed since it was read. Read it again, then retry.",
    example: { detail: "The order changed since the ETag given in If-Match; read it again" },
  },
  payload_too_large: {
    status: 413,
    on: "body",
    when: "The body is larger than 1 MiB.",
    example: { detail: "The request body is larger than 1048576 bytes" },
  },
  request_header_fields_too_large: {
    status: 431,
    on: "any",
    beforeRouting: true,
    when: "The request headers are larger than the server accepts (16 KiB).",
    example: { detail: "The request headers are larger than the server accepts" },
  },
  unsupported_media_type: {
    status: 415,
    on: "body",
    when: "A non-empty body is not `application/json`, or is coded: `Content-Encoding` other than `identity` (the answer's `Accept-Encoding: identity` says so).",
    example: { detail: "The request body must be JSON with Content-Type: application/json" },
  },
  validation_failed: {
    status: 422,
    on: "any",
    when: "Fields, query parameters or enum values are missing or invalid; `errors` names every one.",
    example: { detail: "", errors: [{ field: "limit", code: "out_of_range", message: "must be 1 to 500" }] },
  },
  idempotency_key_reused: {
    status: 422,
    on: "POST",
    when: "This `Idempotency-Key` was used before with a different request.",
    example: { detail: "This Idempotency-Key was used with a different request" },
  },
  rate_limited: {
    status: 429,
    on: "any",
    when: "More requests this minute than the API key may make, or more expensive reads at once (large pages not answered from the cache, counted until they are sent) than it may have; retry after `Retry-After` seconds.",
    example: { detail: "More than 600 requests in a minute; retry after 17 s" },
  },
  overloaded: {
    status: 503,
    on: "any",
    when: "The database cannot take the work now (a burst of requests); nothing was done. Retry after `Retry-After` seconds.",
    example: { detail: "The service is too busy to take this request now; retry after 1 s" },
  },
  unavailable: {
    status: 503,
    on: "any",
    when: "The database cannot be reached now (stopped, restarting or cut off); nothing was done, and `/readyz` answers 503 meanwhile. Retry after `Retry-After` seconds.",
    example: { detail: "The database cannot be reached now; nothing was done. Retry after 5 s" },
  },
  internal: {
    status: 500,
    on: "any",
    when: "Something unexpected failed. Nothing about it is disclosed; quote `request_id` when reporting it.",
    example: { detail: "An unexpected error occurred; quote the request id when reporting it" },
  },
} satisfies Record<string, ProblemEntry>;

export const PROBLEMS: Record<ProblemCode, ProblemEntry> = CATALOGUE;
