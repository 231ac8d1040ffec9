import { type GraphQLSchema, isEnumType } from "graphql";
import { PROBLEMS, type ProblemCode, type ProblemEntry, type ProblemExample } from "../contract/problems.js";
import type { HttpMethod, JsonValue } from "../contract/route.js";
import { FIELD_PROBLEM_CODES } from "../domain/errors.js";
import { problemBody } from "../http/problem.js";
import { describeFieldErrors } from "../rest/errors.js";
import { leafSchema, type SchemaRegistry } from "./schemas.js";
import type { JsonSchema, Response } from "./types.js";

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

/**
 * One operation's problems: the shared `Problem` with `code` narrowed to the
 * codes the operation answers with, so that a generated client's error type
 * admits no code the operation never gives.
 */
export function operationProblemSchema(
  operationId: string,
  codes: readonly ProblemCode[],
  problemRef: JsonSchema,
  registry: SchemaRegistry,
): JsonSchema {
  const name = `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Problem`;
  return registry.ref(name, {
    description: "A problem this operation answers with: `Problem`, with only the codes it gives.",
    allOf: [
      problemRef,
      { type: "object", properties: { code: { type: "string", enum: [...codes] } }, required: ["code"] },
    ],
  });
}

/** RFC 9457 problem details as docs/design/decisions.md §2 "Problem details" defines them. */
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
      code: {
        type: "string",
        enum: Object.keys(PROBLEMS),
        description:
          "The stable snake_case reason, e.g. `validation_failed`. Each operation's problem schema (`ListOrdersProblem`, …) narrows it to the codes that operation answers with.",
      },
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

/**
 * Problems grouped by status, each status one response with an example per
 * code and `problemRef` (the operation's problem) as its schema; the codes of
 * each response are its examples and its description.
 */
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
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${codes.get(code)}`).join("\n\n"),
      // Only the headers every code of the status carries (400 `bad_request` has no rate-limit headers).
      headers: Object.fromEntries(
        Object.entries(headersFor(statusCodes[0] ?? "internal") ?? {}).filter(([name]) =>
          statusCodes.every((code) => headersFor(code)?.[name] !== undefined),
        ),
      ),
      content: {
        "application/problem+json": {
          schema: problemRef,
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
