import type { GraphQLError } from "graphql";
import type { FieldError, Problem } from "../http/problem.js";
import { snakeCase } from "./rest-spelling.js";

/** `["input", "tagIds", 2]` → `tag_ids[2]`; the first segment is named by the route (`first` → `limit`). */
export function restFieldName(
  path: readonly (string | number)[],
  argumentNames: Record<string, string>,
): string {
  const [argument, ...rest] = path;
  let name = typeof argument === "string" ? (argumentNames[argument] ?? snakeCase(argument)) : "";
  for (const segment of rest) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? snakeCase(segment) : `.${snakeCase(segment)}`;
  }
  return name;
}

interface FieldProblemExtension {
  path: (string | number)[];
  code: string;
  message: string;
}

const STATUS_BY_CODE: Record<string, number> = {
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  INVALID_TRANSITION: 409,
  ALREADY_EXISTS: 409,
  ENDPOINT_DISABLED: 409,
  VALIDATION_FAILED: 422,
  OVERLOADED: 503,
};

/** The problem for a GraphQL error that carries one of our codes, or null for anything unexpected. */
export function problemFromGraphQLError(
  error: GraphQLError,
  argumentNames: Record<string, string>,
): Problem | null {
  // graphql-jit leaves `extensions` undefined on an error thrown without any.
  const extensions: GraphQLError["extensions"] = error.extensions ?? {};
  const code = typeof extensions.code === "string" ? extensions.code : "";
  const status = STATUS_BY_CODE[code];
  if (!status) return null;
  const problem: Problem = { status, code: code.toLowerCase(), detail: error.message };
  // Headers the error asks for, as Yoga would send them (OVERLOADED's `Retry-After`).
  const http = extensions.http as { headers?: Record<string, string> } | undefined;
  if (http?.headers) problem.headers = http.headers;
  const fieldErrors = extensions.fieldErrors as FieldProblemExtension[] | undefined;
  if (fieldErrors) {
    problem.errors = fieldErrors.map(
      (fieldError): FieldError => ({
        field: restFieldName(fieldError.path, argumentNames),
        code: fieldError.code,
        message: fieldError.message,
      }),
    );
    problem.detail = describeFieldErrors(problem.errors);
  }
  const allowedStatuses = extensions.allowedStatuses;
  if (Array.isArray(allowedStatuses)) problem.extensions = { allowed_statuses: allowedStatuses };
  return problem;
}

export function describeFieldErrors(errors: FieldError[]): string {
  const [first] = errors;
  if (errors.length === 1 && first) return `${first.field} ${first.message}`;
  return `${errors.length} fields are invalid: ${errors.map((error) => error.field).join(", ")}`;
}
