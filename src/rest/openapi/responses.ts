import type { HttpMethod, RestRoute } from "../route.js";
import { headerRef, type ResponseHeaderName } from "./headers.js";
import { PROBLEMS, problemExample } from "./problems.js";
import type { Example, JsonSchema, ProblemCode, ProblemExample, Response } from "./types.js";

export interface ResponseContext {
  method: HttpMethod;
  /** List operations page with `Link`. */
  paginated: boolean;
}

/** Statuses whose response an idempotent POST can replay: the outcome of the operation, not of the checks before it. */
const REPLAYABLE = new Set([200, 201, 404, 409, 422]);

/**
 * The headers of a response with this status. Rate-limit headers come with
 * every response to a valid key: a 401 has none, and a 500 may have lost them.
 */
function headersFor(status: number, context: ResponseContext): Response["headers"] {
  const names: ResponseHeaderName[] = ["X-Request-Id"];
  if (status !== 401 && status !== 500)
    names.push("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
  if (status === 429 || status === 503) names.push("Retry-After");
  if (context.paginated && status < 300) names.push("Link");
  if (context.method === "POST" && REPLAYABLE.has(status)) names.push("Idempotent-Replayed");
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

export function successResponse(
  { status, description, example }: RestRoute["success"],
  schema: JsonSchema | null,
  context: ResponseContext,
): Response {
  if (schema === null) return { description, headers: headersFor(status, context) };
  const examples: Record<string, Example> = example === undefined ? {} : { default: { value: example } };
  return {
    description,
    headers: headersFor(status, context),
    content: { "application/json": { schema, examples } },
  };
}

/** Problems grouped by status, each status one response with an example per code. */
export function problemResponses(
  codes: Map<ProblemCode, string>,
  examples: Partial<Record<ProblemCode, ProblemExample>>,
  problemRef: JsonSchema,
  context: ResponseContext,
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
      headers: headersFor(status, context),
      content: {
        "application/problem+json": {
          schema: {
            allOf: [
              problemRef,
              {
                type: "object",
                properties: { status: { const: status }, code: { type: "string", enum: statusCodes } },
              },
            ],
          },
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
