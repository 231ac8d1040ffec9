import { GraphQLError } from "graphql";
import { ORDER_STATUSES } from "../domain/contract-vocabulary.js";
import { describeRefusedTransition } from "../domain/errors.js";
import type { FieldError, Problem } from "../http/problem.js";
import { translated } from "../schema/domain-errors.js";
import { graphqlEnumName } from "../schema/enum-names.js";
import { snakeCase } from "./rest-spelling.js";

/** `["input", "tagIds", 2]` → `tag_ids[2]`; the first segment is named by the route (`first` → `limit`). */
function restFieldName(path: readonly (string | number)[], argumentNames: Record<string, string>): string {
  const [argument, ...rest] = path;
  let name = typeof argument === "string" ? (argumentNames[argument] ?? snakeCase(argument)) : "";
  for (const segment of rest) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? snakeCase(segment) : `.${snakeCase(segment)}`;
  }
  return name;
}

/** A field problem as `extensions.fieldErrors` and the adapter's own checks give it. */
interface FieldProblemExtension {
  path: (string | number)[];
  code: string;
  message: string;
}

/** GraphQL's OrderStatus names (in `allowedStatuses`) → the contract's spelling. */
const CONTRACT_ORDER_STATUS = new Map(ORDER_STATUSES.map((status) => [graphqlEnumName(status), status]));
const contractOrderStatus = (name: unknown): string =>
  typeof name === "string" ? (CONTRACT_ORDER_STATUS.get(name) ?? name) : String(name);

const STATUS_BY_CODE: Record<string, number> = {
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  INVALID_TRANSITION: 409,
  ALREADY_EXISTS: 409,
  PRECONDITION_FAILED: 412,
  ENDPOINT_DISABLED: 409,
  VALIDATION_FAILED: 422,
  OVERLOADED: 503,
  UNAVAILABLE: 503,
};

/**
 * The problem for a failure that carries one of our codes, or null for
 * anything unexpected: a GraphQL error from a resolver, or a failure outside
 * any resolver (the idempotency transaction not starting), which the schema's
 * own mapping (`translated`) names as it would a resolver's.
 */
export function problemFor(failure: unknown, argumentNames: Record<string, string>): Problem | null {
  const error = failure instanceof GraphQLError ? failure : translated(failure);
  if (!(error instanceof GraphQLError)) return null;
  const { extensions } = error;
  const code = typeof extensions.code === "string" ? extensions.code : "";
  const status = STATUS_BY_CODE[code];
  if (!status) return null;
  const problem: Problem = { status, code: code.toLowerCase(), detail: error.message };
  // Headers the error asks for, as Yoga would send them (`Retry-After` of OVERLOADED and UNAVAILABLE).
  const http = extensions.http as { headers?: Record<string, string> } | undefined;
  if (http?.headers) problem.headers = http.headers;
  const fieldErrors = extensions.fieldErrors as FieldProblemExtension[] | undefined;
  if (fieldErrors) Object.assign(problem, fieldProblems(fieldErrors, argumentNames));
  const allowedStatuses = extensions.allowedStatuses;
  if (Array.isArray(allowedStatuses)) {
    const allowed = allowedStatuses.map(contractOrderStatus);
    problem.extensions = { allowed_statuses: allowed };
    const { fromStatus, toStatus } = extensions;
    if (typeof fromStatus === "string" && typeof toStatus === "string") {
      const transition = { from: contractOrderStatus(fromStatus), to: contractOrderStatus(toStatus) };
      problem.detail = describeRefusedTransition(transition, allowed, (status) => status);
    }
  }
  return problem;
}

/** Field problems in GraphQL names, as the `errors` of a problem and its `detail`. */
export function fieldProblems(
  problems: FieldProblemExtension[],
  argumentNames: Record<string, string>,
): { errors: FieldError[]; detail: string } {
  const errors = problems.map(({ path, code, message }) => ({
    field: restFieldName(path, argumentNames),
    code,
    message,
  }));
  return { errors, detail: describeFieldErrors(errors) };
}

export function describeFieldErrors(errors: FieldError[]): string {
  const [first] = errors;
  if (errors.length === 1 && first) return `${first.field} ${first.message}`;
  return `${errors.length} fields are invalid: ${errors.map((error) => error.field).join(", ")}`;
}
