import { type ExecutionArgs, type ExecutionResult, GraphQLError, getOperationAST } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { coercedVariables } from "../schema/variable-values.js";
import { REFUSAL_CODES } from "./refusal.js";

/** Request errors answer 400 whatever media type the client accepts (see docs/reference/graphql.md). */
const REQUEST_ERROR = { status: 400, spec: false } as const;

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_REQUEST", http: REQUEST_ERROR } });
}

/**
 * Variables coerced as execution would, so that values that do not fit their
 * types are refused with BAD_USER_INPUT before anything runs, instead of
 * graphql-js's uncoded errors (or INTERNAL, for a scalar that threw a plain Error).
 */
function variableErrors(args: ExecutionArgs): GraphQLError[] {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation?.variableDefinitions?.length) return [];
  const coerced = coercedVariables(args.schema, operation.variableDefinitions, args.variableValues);
  return (coerced.errors ?? []).map(
    (error) =>
      new GraphQLError(error.message, {
        nodes: error.nodes,
        extensions: { code: "BAD_USER_INPUT", http: REQUEST_ERROR },
      }),
  );
}

/** The code of an error that reached the response without one. */
function codeFor(error: GraphQLError): string {
  if (error.message.startsWith("Syntax Error:")) return "GRAPHQL_PARSE_FAILED";
  const http = error.extensions.http as { status?: number } | undefined;
  if (http?.status !== undefined && http.status >= 400 && http.status < 500) return "BAD_REQUEST";
  // graphql-js's own execution errors (e.g. null for a non-null field) are faults of ours.
  return "INTERNAL";
}

/**
 * Codes of requests refused before execution: the document, its variables or
 * the HTTP request itself, and the limits. Refusals are made with `spec: false`,
 * but Yoga marks every error raised while parsing as a spec error (HTTP 200 for
 * clients accepting only `application/json`), the token limit's among them.
 */
const REQUEST_ERROR_CODES = new Set<string>([
  "OPERATION_RESOLUTION_FAILURE",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  ...REFUSAL_CODES,
]);

function withCodes(result: ExecutionResult): void {
  for (const error of result.errors ?? []) {
    const extensions = error.extensions as Record<string, unknown>;
    if (typeof extensions.code !== "string") extensions.code = codeFor(error);
    if (REQUEST_ERROR_CODES.has(extensions.code as string)) {
      const http = extensions.http as Record<string, unknown> | undefined;
      extensions.http = { ...http, ...REQUEST_ERROR, status: (http?.status as number | undefined) ?? 400 };
    }
  }
}

/**
 * Every error /graphql answers carries an `extensions.code` from the list in
 * docs/reference/graphql.md, and request errors (bad HTTP request, document or
 * variables) answer HTTP 400 without a stack trace in the log.
 */
export function errorCodesPlugin(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      // Yoga's GET parser JSON-parses `variables` and `extensions` unguarded:
      // a malformed one would surface as an unexpected error.
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (error instanceof GraphQLError) throw error;
          throw badRequest(
            "The request's GraphQL parameters are malformed: variables and extensions must be JSON objects",
          );
        }
      });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const errors = variableErrors(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = variableErrors(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
    onResultProcess({ result }) {
      if (isAsyncIterable(result)) return;
      for (const single of Array.isArray(result) ? result : [result]) withCodes(single);
    },
  };
}
