// Domain errors are GraphQLErrors so that they pass through GraphQL
// execution with their code intact; the REST adapter maps the same codes.
import { GraphQLError } from "graphql";

/** Machine codes shared by GraphQL (`extensions.code`) and REST (`code`, lower-cased). */
export type ErrorCode =
  | "UNAUTHENTICATED"
  | "NOT_FOUND"
  | "VALIDATION_FAILED"
  | "INVALID_TRANSITION"
  | "ALREADY_EXISTS"
  | "INTERNAL";

/** One problem with one input field; `path` uses the GraphQL argument and field names. */
export interface FieldProblem {
  path: (string | number)[];
  code: "required" | "invalid" | "too_long" | "out_of_range" | "too_many" | "duplicate" | "not_found";
  message: string;
}

export function domainError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export function notFound(what: string): GraphQLError {
  return domainError("NOT_FOUND", `${what} not found`);
}

export function unauthenticated(): GraphQLError {
  return domainError("UNAUTHENTICATED", "A valid X-API-KEY header is required", { http: { status: 401 } });
}

export function validationFailed(problems: FieldProblem[]): GraphQLError {
  const first = problems[0];
  const message =
    problems.length === 1 && first
      ? `${first.path.join(".")}: ${first.message}`
      : `${problems.length} fields are invalid`;
  return domainError("VALIDATION_FAILED", message, { fieldErrors: problems });
}

export function invalidTransition(message: string, allowedStatuses: string[]): GraphQLError {
  return domainError("INVALID_TRANSITION", message, { allowedStatuses });
}

export function alreadyExists(message: string): GraphQLError {
  return domainError("ALREADY_EXISTS", message);
}
