// Domain errors are plain: they say what went wrong in the caller's terms.
// The schema layer (src/schema/domain-errors.ts) turns them into the
// GraphQL errors that GraphQL clients and the REST adapter read.
import type { OrderStatus } from "../db/generated/prisma/enums.js";

/** Machine codes shared by GraphQL (`extensions.code`) and REST (`code`, lower-cased). */
export type ErrorCode =
  | "UNAUTHENTICATED"
  | "NOT_FOUND"
  | "VALIDATION_FAILED"
  | "INVALID_TRANSITION"
  | "ALREADY_EXISTS"
  | "PRECONDITION_FAILED"
  | "ENDPOINT_DISABLED"
  | "INTERNAL";

/** What can be wrong with one input field; the REST reference lists them. */
export const FIELD_PROBLEM_CODES = [
  "required",
  "invalid",
  "too_long",
  "out_of_range",
  "too_many",
  "duplicate",
  "not_found",
] as const;

/** One problem with one input field; `path` uses the GraphQL argument and field names. */
export interface FieldProblem {
  path: (string | number)[];
  code: (typeof FIELD_PROBLEM_CODES)[number];
  message: string;
}

/** A request the domain refuses, with what the caller needs to put it right. */
export class DomainError extends Error {
  override readonly name = "DomainError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For VALIDATION_FAILED: every field that is wrong. */
    readonly fieldErrors?: FieldProblem[],
    /** For INVALID_TRANSITION: the statuses the order may move to instead. */
    readonly allowedStatuses?: OrderStatus[],
    /** For INVALID_TRANSITION: the move refused, for each API to word in its own spelling. */
    readonly transition?: { from: OrderStatus; to: OrderStatus },
  ) {
    super(message);
  }
}

/** A refused move, its statuses spelled by `spell` (the contract's, or GraphQL's enum names). */
export function describeRefusedTransition<Status extends string>(
  transition: { from: Status; to: Status },
  allowed: readonly Status[],
  spell: (status: Status) => string,
): string {
  return (
    `An order cannot move from ${spell(transition.from)} to ${spell(transition.to)}` +
    (allowed.length ? `; allowed next statuses: ${allowed.map(spell).join(", ")}` : "; it is final")
  );
}

export function notFound(what: string): DomainError {
  return new DomainError("NOT_FOUND", `${what} not found`);
}

export function unauthenticated(): DomainError {
  return new DomainError("UNAUTHENTICATED", "A valid X-API-KEY header is required");
}

export function validationFailed(problems: FieldProblem[]): DomainError {
  const first = problems[0];
  const message =
    problems.length === 1 && first
      ? `${first.path.join(".")}: ${first.message}`
      : `${problems.length} fields are invalid`;
  return new DomainError("VALIDATION_FAILED", message, problems);
}

export function invalidTransition(
  from: OrderStatus,
  to: OrderStatus,
  allowedStatuses: OrderStatus[],
): DomainError {
  const transition = { from, to };
  const message = describeRefusedTransition(transition, allowedStatuses, (status) => status);
  return new DomainError("INVALID_TRANSITION", message, undefined, allowedStatuses, transition);
}

export function alreadyExists(message: string): DomainError {
  return new DomainError("ALREADY_EXISTS", message);
}

export function preconditionFailed(message: string): DomainError {
  return new DomainError("PRECONDITION_FAILED", message);
}
