import { type GraphQLSchema, isEnumType } from "graphql";
import { FIELD_PROBLEM_CODES } from "../../domain/errors.js";
import { problemBody } from "../../http/problem.js";
import { describeFieldErrors } from "../errors.js";
import type { HttpMethod, JsonValue, ProblemCode, ProblemExample } from "../route.js";
import { leafSchema, type SchemaRegistry } from "./schemas.js";
import type { JsonSchema, Response } from "./types.js";

interface ProblemEntry {
  status: number;
  /**
   * Which requests can meet it before or after their operation runs (docs/decisions.md §2
   * "Order of checks"): every one, those with an id in the path, with a body, or POSTs.
   * Without it, only the operations that list it.
   */
  on?: "any" | "path id" | "body" | "POST";
  /** When it happens, in general; an operation may say it more precisely. */
  when: string;
  example: ProblemExample;
}

export const PROBLEMS: Record<ProblemCode, ProblemEntry> = {
  invalid_json: {
    status: 400,
    on: "body",
    when: "The body is not JSON, or not a JSON object.",
    example: { detail: "The request body is not valid JSON" },
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
    when: "The id in the path is not a UUID, or names no record of your organisation.",
    example: { detail: "No such resource" },
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
        "An order cannot move from in_transit to order_placed; allowed next statuses: shipped, in_port, in_warehouse, delivered",
      allowed_statuses: ["shipped", "in_port", "in_warehouse", "delivered"],
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
  unsupported_media_type: {
    status: 415,
    on: "body",
    when: "A non-empty body is not `application/json`.",
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
    when: "More requests this minute than the API key may make; retry after `Retry-After` seconds.",
    example: { detail: "More than 600 requests in a minute; retry after 17 s" },
  },
  overloaded: {
    status: 503,
    on: "any",
    when: "The database cannot take the work now (a burst of requests); nothing was done. Retry after `Retry-After` seconds.",
    example: { detail: "The service is too busy to take this request now; retry after 1 s" },
  },
  internal: {
    status: 500,
    on: "any",
    when: "Something unexpected failed. Nothing about it is disclosed; quote `request_id` when reporting it.",
    example: { detail: "An unexpected error occurred; quote the request id when reporting it" },
  },
};

/** The problems any request of this method and path can meet, whatever its operation does. */
export function requestProblems(method: HttpMethod, path: string): ProblemCode[] {
  const meets = { any: true, "path id": path.includes("{"), body: method !== "GET", POST: method === "POST" };
  return (Object.keys(PROBLEMS) as ProblemCode[]).filter((code) => {
    const on = PROBLEMS[code].on;
    return on !== undefined && meets[on];
  });
}

const EXAMPLE_REQUEST_ID = "0c2f8a4e-5d1b-4f3a-9e7c-6b1d2a3f4e5d";

/** A problem body exactly as the service writes it. */
function problemExample(code: ProblemCode, example: ProblemExample): JsonValue {
  const { status } = PROBLEMS[code];
  const { errors, allowed_statuses, detail } = example;
  return JSON.parse(
    problemBody(
      {
        status,
        code,
        detail: errors ? describeFieldErrors(errors) : detail,
        ...(errors ? { errors } : {}),
        ...(allowed_statuses ? { extensions: { allowed_statuses } } : {}),
      },
      EXAMPLE_REQUEST_ID,
    ),
  ) as JsonValue;
}

/** RFC 9457 problem details as docs/decisions.md §2 "Problem details" defines them. */
export function problemSchema(schema: GraphQLSchema, registry: SchemaRegistry): JsonSchema {
  const orderStatus = schema.getType("OrderStatus");
  if (!isEnumType(orderStatus)) throw new Error("OpenAPI: the schema has no OrderStatus enum");
  const fieldError = registry.ref("FieldError", {
    type: "object",
    description: "One problem with one field of the request.",
    properties: {
      field: {
        type: "string",
        description:
          "The field in the REST spelling: `first_name`, `tag_ids[2]`, `resource_values[0].provider`, `limit`, `Idempotency-Key`.",
      },
      code: { type: "string", enum: [...FIELD_PROBLEM_CODES], description: "What is wrong with it." },
      message: { type: "string", description: "The same in words, e.g. `is required`." },
    },
    required: ["field", "code", "message"],
  });
  return registry.ref("Problem", {
    type: "object",
    description:
      "RFC 9457 problem details, served as `application/problem+json`. `type` is `about:blank`, so `title` is the HTTP status phrase; `code` is the stable machine-readable reason.",
    properties: {
      type: { type: "string", description: "Always `about:blank`." },
      title: { type: "string", description: "The HTTP status phrase, e.g. `Unprocessable Content`." },
      status: { type: "integer", minimum: 400, maximum: 599, description: "The HTTP status code." },
      detail: { type: "string", description: "What went wrong, for a person to read." },
      code: { type: "string", description: "The stable snake_case reason, e.g. `validation_failed`." },
      request_id: {
        type: "string",
        description:
          "The request's id, as in the `X-Request-Id` response header. Quote it when reporting a problem.",
      },
      errors: {
        type: "array",
        items: fieldError,
        description: "With `validation_failed`: every field problem found, all at once.",
      },
      allowed_statuses: {
        type: "array",
        items: leafSchema(orderStatus, "output"),
        description: "With `invalid_transition`: the statuses the order may move to next.",
      },
    },
    required: ["type", "title", "status", "detail", "code", "request_id"],
  });
}

/** The table of every problem, for the reference's introduction. */
export function problemTable(): string {
  const rows = (Object.entries(PROBLEMS) as [ProblemCode, ProblemEntry][])
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, entry]) => `| ${entry.status} | \`${code}\` | ${entry.when} |`);
  return ["| status | code | when |", "|---|---|---|", ...rows].join("\n");
}

/** Problems grouped by status, each status one response with an example per code. */
export function problemResponses(
  codes: Map<ProblemCode, string>,
  examples: Partial<Record<ProblemCode, ProblemExample>>,
  problemRef: JsonSchema,
  headersFor: (code: ProblemCode) => Response["headers"],
): Record<string, Response> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes.keys()) {
    const { status } = PROBLEMS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const statusSchema: Record<string, JsonSchema> = {
      status: { const: status },
      code: { type: "string", enum: statusCodes },
    };
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${codes.get(code)}`).join("\n\n"),
      headers: headersFor(statusCodes[0] ?? "internal"),
      content: {
        "application/problem+json": {
          schema: { allOf: [problemRef, { type: "object", properties: statusSchema }] },
          examples: Object.fromEntries(
            statusCodes.map((code) => [
              code,
              { summary: code, value: problemExample(code, examples[code] ?? PROBLEMS[code].example) },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}
