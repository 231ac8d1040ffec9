// The one place where the domain's refusals become GraphQL errors: a Pothos
// plugin wraps every resolver and subscription, so that both GraphQL clients
// and the REST adapter (which reads `extensions.code`) see the same error.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import { defaultFieldResolver, GraphQLError, type GraphQLFieldResolver } from "graphql";
import { DomainError } from "../domain/errors.js";

/** The GraphQL error for a domain error: its code and details in `extensions`. */
export function graphQLErrorFrom(error: DomainError): GraphQLError {
  const extensions: Record<string, unknown> = { code: error.code };
  // Yoga answers the whole HTTP request with this status.
  if (error.code === "UNAUTHENTICATED") extensions.http = { status: 401 };
  if (error.fieldErrors) extensions.fieldErrors = error.fieldErrors;
  if (error.allowedStatuses) extensions.allowedStatuses = error.allowedStatuses;
  return new GraphQLError(error.message, { extensions });
}

function translated(error: unknown): unknown {
  return error instanceof DomainError ? graphQLErrorFrom(error) : error;
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

class DomainErrorsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: Resolver<Types>, _field: PothosOutputFieldConfig<Types>): Resolver<Types> {
    // Reading a property cannot throw a domain error, and graphql-jit inlines the default resolver.
    return resolver === defaultFieldResolver ? resolver : translatingErrors(resolver);
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
