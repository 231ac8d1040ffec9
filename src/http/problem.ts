import { Response as ServedResponse } from "@whatwg-node/server";

/** A field problem in REST spelling (docs/design/decisions.md §2 "Problem details"). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  /** Extra members, e.g. the statuses an order may move to. */
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A request without a valid API key, REST's and GraphQL's alike: the header to send it in. */
export const UNAUTHENTICATED: Problem = {
  status: 401,
  code: "unauthenticated",
  detail: "A valid X-API-KEY header is required",
  headers: { "www-authenticate": 'ApiKey realm="buyer-api", header="X-API-KEY"' },
};

/** A method a path does not take, and those it does (`allow`). */
export function methodNotAllowed(method: string, allow: readonly string[]): Problem {
  const methods = allow.join(", ");
  const detail = `${method} is not allowed here; use ${methods}`;
  return { status: 405, code: "method_not_allowed", detail, headers: { allow: methods } };
}

/** RFC 9457 problem details; `type` is about:blank, so `title` is the status phrase and `code` tells the cases apart. */
export function problemBody(problem: Problem, requestId: string): string {
  return JSON.stringify({
    type: "about:blank",
    title: TITLES[problem.status] ?? "Error",
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    request_id: requestId,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extensions,
  });
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function problemResponse(problem: Problem, requestId: string): Response {
  return new ServedResponse(problemBody(problem, requestId), {
    status: problem.status,
    statusText: TITLES[problem.status],
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...problem.headers },
  });
}

/**
 * REST bodies and problems are @whatwg-node's Response, not Node's: the server
 * writes its text to the socket in one write, where Node's Response encodes it
 * into a stream that the server then copies out chunk by chunk.
 */
export function jsonResponse(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new ServedResponse(body, { status, headers: { "content-type": JSON_CONTENT_TYPE, ...headers } });
}
