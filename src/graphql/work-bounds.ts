import { type ExecutionArgs, GraphQLError, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { GraphQLWorkBounds } from "../config.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { GraphQLContext } from "../schema/context.js";
import { pricedOperationOf } from "./cost.js";
import { refusal } from "./refusal.js";

export interface WorkBoundsOptions extends GraphQLWorkBounds {
  /**
   * PostgreSQL cancels a statement that outlives `statement_timeout`; PGlite
   * runs each statement to its end in this process, so there only the
   * execution is stopped.
   */
  cancelsStatements: boolean;
}

/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout`. */
const QUERY_CANCELED = "57014";

function timedOut(timeoutMs: number): GraphQLError {
  return new GraphQLError(`The operation was stopped after ${timeoutMs} ms; ask for less (smaller pages)`, {
    extensions: { code: "TIMEOUT" },
  });
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
 * may take. On PostgreSQL a query runs in a read-only transaction whose
 * `statement_timeout` makes the database itself cancel the SQL in progress;
 * everywhere the execution is aborted so that no further resolver starts.
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
      const inTransaction = operation?.operation === "query" && bounds.cancelsStatements;
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
          return inTransaction ? await inReadOnlyTransaction(executionArgs) : await executeFn(executionArgs);
        } catch (error) {
          throw isTimeout(error) || deadline.signal.aborted ? timedOut(bounds.timeoutMs) : error;
        } finally {
          clearTimeout(timer);
          if (expensive && apiKeyId) release(apiKeyId);
        }
      });

      async function inReadOnlyTransaction(executionArgs: ExecutionArgs) {
        const executionContext = executionArgs.contextValue as GraphQLContext;
        const prisma = executionContext.prisma;
        let result: Awaited<ReturnType<typeof executeFn>> | undefined;
        try {
          await prisma.$transaction(
            async (transaction) => {
              await transaction.$executeRawUnsafe("SET TRANSACTION READ ONLY");
              // A whole number of milliseconds from configuration, never client input.
              await transaction.$executeRawUnsafe(
                `SET LOCAL statement_timeout = ${Math.trunc(bounds.timeoutMs)}`,
              );
              // Query resolvers never open transactions of their own, so the transaction client serves them.
              executionContext.prisma = transaction as unknown as PrismaClient;
              result = await executeFn(executionArgs);
            },
            { timeout: bounds.timeoutMs + 1_000, maxWait: bounds.timeoutMs },
          );
        } catch (error) {
          // A failure after execution (e.g. at commit) leaves the result to report.
          if (result === undefined) throw error;
        } finally {
          executionContext.prisma = prisma;
        }
        return result as Awaited<ReturnType<typeof executeFn>>;
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
