// The one place where the domain's refusals, and a database too busy to take
// the work, become GraphQL errors: a Pothos plugin wraps every resolver and
// subscription, so that both GraphQL clients and the REST adapter (which reads
// `extensions.code`) see the same error.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import { defaultFieldResolver, GraphQLError, type GraphQLFieldResolver } from "graphql";
import { Prisma } from "../db/generated/prisma/client.js";
import type { OrderStatus } from "../db/generated/prisma/enums.js";
import {
  isDatabaseUnreachable,
  UNREACHABLE_MESSAGE,
  UNREACHABLE_RETRY_AFTER_SECONDS,
} from "../db/unreachable.js";
import { contractSpelling } from "../domain/contract-vocabulary.js";
import {
  DomainError,
  describeRefusedTransition,
  type ErrorCode,
  type FieldProblem,
} from "../domain/errors.js";
import { graphqlEnumName } from "./enum-names.js";

/** An OrderStatus as GraphQL names it, the name a client passes back. */
const graphqlStatus = (status: OrderStatus) => graphqlEnumName(contractSpelling(status));

/** The error's message in GraphQL's words: a refused move names statuses as the OrderStatus enum does. */
function graphqlMessage(error: DomainError): string {
  return error.transition
    ? describeRefusedTransition(error.transition, error.allowedStatuses ?? [], graphqlStatus)
    : error.message;
}

/** The GraphQL error for a domain error: its code and details in `extensions`. */
export function graphQLErrorFrom(error: DomainError): GraphQLError {
  const extensions: Record<string, unknown> = { code: error.code };
  // Yoga answers the whole HTTP request with this status.
  if (error.code === "UNAUTHENTICATED") extensions.http = { status: 401 };
  if (error.fieldErrors) extensions.fieldErrors = error.fieldErrors;
  // OrderStatus names (the REST adapter spells them as the contract does).
  if (error.allowedStatuses) extensions.allowedStatuses = error.allowedStatuses.map(graphqlStatus);
  if (error.transition) {
    extensions.fromStatus = graphqlStatus(error.transition.from);
    extensions.toStatus = graphqlStatus(error.transition.to);
  }
  return new GraphQLError(graphqlMessage(error), { extensions });
}

/** Seconds a client is asked to wait before retrying work the database could not take. */
const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * Whether the database could not take the work in time: no pool connection
 * (P2024), or no transaction started within its wait (P2028 with this
 * message; other P2028s are transactions that ran out of time, which the
 * GraphQL work bounds report as TIMEOUT).
 */
export function isOverloaded(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  return (
    error.code === "P2024" ||
    (error.code === "P2028" && error.message.includes("Unable to start a transaction in the given time"))
  );
}

/** OVERLOADED: answered with HTTP 503 and `Retry-After`, by /graphql (Yoga reads `http`) and by REST. */
export function overloadedError(): GraphQLError {
  return new GraphQLError(
    `The service is too busy to take this request now; retry after ${OVERLOADED_RETRY_AFTER_SECONDS} s`,
    {
      extensions: {
        code: "OVERLOADED",
        http: { status: 503, headers: { "retry-after": String(OVERLOADED_RETRY_AFTER_SECONDS) } },
      },
    },
  );
}

/** The code of a failure to reach the database. */
export const UNAVAILABLE_CODE = "UNAVAILABLE";

/** UNAVAILABLE: the database cannot be reached; HTTP 503 and `Retry-After`, as OVERLOADED. */
export function unavailableError(): GraphQLError {
  return new GraphQLError(UNREACHABLE_MESSAGE, {
    extensions: {
      code: UNAVAILABLE_CODE,
      http: { status: 503, headers: { "retry-after": String(UNREACHABLE_RETRY_AFTER_SECONDS) } },
    },
  });
}

/**
 * The GraphQL error a failure becomes: ours when we know it, else the failure
 * itself (INTERNAL). Resolvers' failures pass through it here; the REST
 * adapter passes failures outside any resolver through it too.
 */
export function translated(error: unknown): unknown {
  if (error instanceof DomainError) return graphQLErrorFrom(error);
  if (isOverloaded(error)) return overloadedError();
  return isDatabaseUnreachable(error) ? unavailableError() : error;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === "function";

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;

function translatingErrors<Types extends SchemaTypes>(resolver: Resolver<Types>): Resolver<Types> {
  return (parent, args, context, info) => {
    try {
      const result: unknown = resolver(parent, args, context, info);
      return isThenable(result)
        ? Promise.resolve(result).catch((error: unknown) => {
            throw translated(error);
          })
        : result;
    } catch (error) {
      throw translated(error);
    }
  };
}

/** The codes a mutation with `userErrors` reports there; any other error stays a top-level error. */
export const USER_ERROR_CODES = [
  "VALIDATION_FAILED",
  "NOT_FOUND",
  "INVALID_TRANSITION",
  "ALREADY_EXISTS",
] as const;
export type UserErrorCode = (typeof USER_ERROR_CODES)[number];

/** One refusal in a `userErrors` list. */
export interface UserErrorShape {
  code: UserErrorCode;
  field: string[] | null;
  fieldCode: FieldProblem["code"] | null;
  message: string;
  allowedStatuses: OrderStatus[] | null;
}

/**
 * Field extension of a mutation that answers refusals as `{ userErrors }`:
 * for the refusals that concern no input field of their own, the input field they are about.
 */
export interface UserErrorsExtension {
  fieldOf: Partial<Record<UserErrorCode, string[]>>;
}

const isUserErrorCode = (code: ErrorCode): code is UserErrorCode =>
  (USER_ERROR_CODES as readonly string[]).includes(code);

export function userErrorsFrom(
  error: DomainError & { code: UserErrorCode },
  fieldOf: UserErrorsExtension["fieldOf"],
) {
  const base = { code: error.code, fieldCode: null, allowedStatuses: null };
  if (error.fieldErrors?.length) {
    return error.fieldErrors.map(
      (problem): UserErrorShape => ({
        ...base,
        field: problem.path.map(String),
        fieldCode: problem.code,
        message: problem.message,
      }),
    );
  }
  return [
    {
      ...base,
      field: fieldOf[error.code] ?? null,
      message: graphqlMessage(error),
      allowedStatuses: error.allowedStatuses ?? null,
    } satisfies UserErrorShape,
  ];
}

/** A mutation's refusals as its payload's `userErrors`; other failures as translated errors. */
function answeringUserErrors<Types extends SchemaTypes>(
  resolver: Resolver<Types>,
  { fieldOf }: UserErrorsExtension,
): Resolver<Types> {
  const answer = (error: unknown) => {
    if (error instanceof DomainError && isUserErrorCode(error.code)) {
      return { userErrors: userErrorsFrom(error as DomainError & { code: UserErrorCode }, fieldOf) };
    }
    throw translated(error);
  };
  return (parent, args, context, info) => {
    try {
      const result: unknown = resolver(parent, args, context, info);
      return isThenable(result) ? Promise.resolve(result).catch(answer) : result;
    } catch (error) {
      return answer(error);
    }
  };
}

class DomainErrorsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: Resolver<Types>, field: PothosOutputFieldConfig<Types>): Resolver<Types> {
    // Reading a property cannot throw a domain error.
    if (resolver === defaultFieldResolver) return resolver;
    const userErrors = field.extensions?.userErrors as UserErrorsExtension | undefined;
    return userErrors ? answeringUserErrors(resolver, userErrors) : translatingErrors(resolver);
  }

  override wrapSubscribe(
    subscribe: Resolver<Types> | undefined,
    _field: PothosOutputFieldConfig<Types>,
  ): Resolver<Types> | undefined {
    return subscribe && translatingErrors(subscribe);
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      domainErrors: DomainErrorsPlugin<Types>;
    }
  }
}

export const domainErrorsPlugin = "domainErrors";
SchemaBuilder.registerPlugin(domainErrorsPlugin, DomainErrorsPlugin);
