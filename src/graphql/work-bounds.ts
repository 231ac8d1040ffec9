import { type ExecutionArgs, GraphQLError, getOperationAST, type OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { GraphQLWorkBounds } from "../config.js";
import type { GraphQLContext } from "../schema/context.js";
import { pricedOperationOf } from "./cost.js";
import { readsOnlyVersionedData } from "./read-routing.js";
import { refusal } from "./refusal.js";

export type WorkBoundsOptions = GraphQLWorkBounds;

/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout`. */
const QUERY_CANCELED = "57014";

function timedOut(timeoutMs: number): GraphQLError {
  return new GraphQLError(`The operation was stopped after ${timeoutMs} ms; ask for less (smaller pages)`, {
    extensions: { code: "TIMEOUT" },
  });
}

/** An error no resolver meant (no code): on a replica, the replica's failure rather than the query's. */
function unmeant(error: GraphQLError): boolean {
  return typeof error.extensions?.code !== "string" && !isTimeout(error);
}

/** Whether an error (or what caused it) is a statement cancelled by the timeout or a transaction it closed. */
function isTimeout(error: unknown, depth = 0): boolean {
  if (depth > 6 || typeof error !== "object" || error === null) return false;
  const record = error as { code?: unknown; message?: unknown; originalError?: unknown; cause?: unknown };
  if (record.code === QUERY_CANCELED || record.code === "P2028") return true;
  if (
    typeof record.message === "string" &&
    /statement timeout|Transaction already closed/i.test(record.message)
  ) {
    return true;
  }
  return isTimeout(record.originalError, depth + 1) || isTimeout(record.cause, depth + 1);
}

/**
 * Bounds the work one request may cause once it runs: expensive operations
 * (by cost) one key may run at once in this process, and how long a query
 * may take. A query reads through the request's read choice (`context.reads`):
 * read-only connections opened with `statement_timeout`, so that on
 * PostgreSQL the database itself cancels the SQL in progress without a
 * statement of ours per query; everywhere the execution is aborted so that
 * no further resolver starts. A query that fails on a replica in a way no
 * resolver meant runs again on the primary.
 */
export function workBoundsPlugin(bounds: WorkBoundsOptions): Plugin {
  const expensiveRunning = new Map<string, number>();

  const release = (apiKeyId: string) => {
    const running = (expensiveRunning.get(apiKeyId) ?? 1) - 1;
    if (running <= 0) expensiveRunning.delete(apiKeyId);
    else expensiveRunning.set(apiKeyId, running);
  };

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = args.contextValue as unknown as GraphQLContext;
      const apiKeyId = context.viewer?.apiKeyId;
      const priced = pricedOperationOf(context);
      const expensive = Boolean(apiKeyId && priced && priced.cost >= bounds.expensiveCost);

      const operation = getOperationAST(args.document, args.operationName);
      const deadline = new AbortController();
      const requestSignal = (args as { signal?: AbortSignal }).signal;
      (args as { signal?: AbortSignal }).signal = requestSignal
        ? AbortSignal.any([deadline.signal, requestSignal])
        : deadline.signal;

      // The slot is taken where execution starts, so that it is released whatever stops execution.
      setExecuteFn(async (executionArgs) => {
        if (expensive && apiKeyId) {
          const running = expensiveRunning.get(apiKeyId) ?? 0;
          if (running >= bounds.maxConcurrentExpensive) {
            return {
              errors: [
                refusal(
                  "CONCURRENCY_LIMIT_EXCEEDED",
                  `At most ${bounds.maxConcurrentExpensive} expensive operations (cost ${bounds.expensiveCost} or more) may run at once per API key; retry when one has finished`,
                  { cost: { requested: priced?.cost, limit: priced?.limit } },
                  { status: 429, headers: { "Retry-After": "1" } },
                ),
              ],
            };
          }
          expensiveRunning.set(apiKeyId, running + 1);
        }
        const timer = setTimeout(() => deadline.abort(timedOut(bounds.timeoutMs)), bounds.timeoutMs);
        try {
          return operation?.operation === "query"
            ? await onReadConnections(executionArgs, operation)
            : await executeFn(executionArgs);
        } catch (error) {
          throw isTimeout(error) || deadline.signal.aborted ? timedOut(bounds.timeoutMs) : error;
        } finally {
          clearTimeout(timer);
          if (expensive && apiKeyId) release(apiKeyId);
        }
      });

      /** Runs a query on the reader the request's read choice gives it; on the primary again if a replica failed it. */
      async function onReadConnections(executionArgs: ExecutionArgs, query: OperationDefinitionNode) {
        const executionContext = executionArgs.contextValue as GraphQLContext;
        const { prisma, reads } = executionContext;
        if (!reads) return executeFn(executionArgs);
        const reader = reads.reader(readsOnlyVersionedData(query));
        try {
          executionContext.prisma = reader.prisma;
          const result = await executeFn(executionArgs);
          if (reader.source === "primary" || deadline.signal.aborted) return result;
          const failure = "errors" in result ? result.errors?.find(unmeant) : undefined;
          if (!failure) return result;
          reads.failed(failure.originalError ?? failure);
          executionContext.prisma = reads.reader(false).prisma;
          return await executeFn(executionArgs);
        } finally {
          executionContext.prisma = prisma;
        }
      }

      return {
        onExecuteDone({ result, setResult }) {
          if (!("errors" in result) || !result.errors?.length) return;
          const stopped = deadline.signal.aborted;
          // Errors the resolvers meant (with a code) stand; what the timeout broke is reported as such.
          const broken = (error: GraphQLError) =>
            isTimeout(error) || (stopped && typeof error.extensions?.code !== "string");
          if (!result.errors.some(broken)) return;
          setResult({
            ...result,
            errors: result.errors.map((error) =>
              broken(error)
                ? new GraphQLError(timedOut(bounds.timeoutMs).message, {
                    path: error.path,
                    nodes: error.nodes,
                    extensions: { code: "TIMEOUT" },
                  })
                : error,
            ),
          });
        },
      };
    },
  };
}
