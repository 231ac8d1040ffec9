import { type ExecutionArgs, GraphQLError, getOperationAST, type OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { GraphQLWorkBounds } from "../config.js";
import {
  type AnswerEvents,
  EXPENSIVE_RETRY_AFTER_SECONDS,
  type ExpensiveWork,
} from "../http/expensive-work.js";
import type { GraphQLContext } from "../schema/context.js";
import { readOnReplicaOrPrimary, replicaFailure } from "../schema/read-on-replica.js";
import { type PricedOperation, pricedOperationOf } from "./cost.js";
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

/** On a replica, the replica's failure rather than the query's (src/schema/read-on-replica.ts); a timeout is the query's. */
function unmeant(error: GraphQLError): boolean {
  return replicaFailure(error) && !isTimeout(error);
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
 * (by cost) one key may have at once in this process, counted until their
 * answers are sent (src/http/expensive-work.ts, shared with REST), and how
 * long a query may take. A query reads through the request's read choice (`context.reads`):
 * read-only connections opened with `statement_timeout`, so that on
 * PostgreSQL the database itself cancels the SQL in progress without a
 * statement of ours per query; everywhere the execution is aborted so that
 * no further resolver starts. A query that fails on a replica in a way no
 * resolver meant runs again on the primary.
 */
export function workBoundsPlugin(bounds: WorkBoundsOptions, expensiveWork: ExpensiveWork): Plugin {
  return {
    async onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
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

      // Taken before a planned read (planned-reads.ts, a later hook) may answer in place of
      // execution, so that either engine's answer holds it; released once, whichever ends.
      const slot = expensive && apiKeyId ? await expensiveWork.take(apiKeyId, requestSignal) : undefined;
      if (slot === null) {
        setResultAndStopExecution({ errors: [concurrencyRefusal(bounds, expensiveWork, priced)] });
        return;
      }
      // The turn is held while the answer is made, and the key's place while it is sent:
      // a slow reader keeps its answer's bytes as long.
      const release = () => slot?.release(context as AnswerEvents);
      setExecuteFn(async (executionArgs) => {
        const timer = setTimeout(() => deadline.abort(timedOut(bounds.timeoutMs)), bounds.timeoutMs);
        try {
          return operation?.operation === "query"
            ? await onReadConnections(executeFn, executionArgs, operation, deadline.signal)
            : await executeFn(executionArgs);
        } catch (error) {
          throw isTimeout(error) || deadline.signal.aborted ? timedOut(bounds.timeoutMs) : error;
        } finally {
          clearTimeout(timer);
          release();
        }
      });

      return {
        onExecuteDone({ result, setResult }) {
          release();
          if (!("errors" in result) || !result.errors?.length) return;
          const errors = timeoutsReported(result.errors, deadline.signal.aborted, bounds.timeoutMs);
          if (errors) setResult({ ...result, errors });
        },
      };
    },
  };
}

type ExecuteFn = Parameters<NonNullable<Plugin["onExecute"]>>[0]["executeFn"];

function concurrencyRefusal(
  bounds: WorkBoundsOptions,
  expensiveWork: ExpensiveWork,
  priced: PricedOperation | undefined,
): GraphQLError {
  return refusal(
    "CONCURRENCY_LIMIT_EXCEEDED",
    `At most ${expensiveWork.maxPerKey} expensive requests (operations costing ${bounds.expensiveCost} or more) may run or be sent at once per API key, and ${expensiveWork.maxWaitingPerKey} more wait their turn; retry when one has been sent`,
    { cost: { requested: priced?.cost, limit: priced?.limit } },
    { status: 429, headers: { "Retry-After": String(EXPENSIVE_RETRY_AFTER_SECONDS) } },
  );
}

/** Runs a query on the reader chosen for it before it runs; on the primary again if a replica failed it. */
function onReadConnections(
  executeFn: ExecuteFn,
  executionArgs: ExecutionArgs,
  query: OperationDefinitionNode,
  deadline: AbortSignal,
) {
  return readOnReplicaOrPrimary(
    executionArgs.contextValue as GraphQLContext,
    readsOnlyVersionedData(query),
    async (on) => executeFn({ ...executionArgs, contextValue: on }),
    (result) => {
      if (deadline.aborted || !("errors" in result)) return undefined;
      const failure = result.errors?.find(unmeant);
      return failure && (failure.originalError ?? failure);
    },
  );
}

/**
 * The errors with each one the timeout broke reported as a timeout, or null
 * when it broke none. Errors the resolvers meant (with a code) stand.
 */
function timeoutsReported(
  errors: readonly GraphQLError[],
  stopped: boolean,
  timeoutMs: number,
): GraphQLError[] | null {
  const broken = (error: GraphQLError) =>
    isTimeout(error) || (stopped && typeof error.extensions?.code !== "string");
  if (!errors.some(broken)) return null;
  return errors.map((error) =>
    broken(error)
      ? new GraphQLError(timedOut(timeoutMs).message, {
          path: error.path,
          nodes: error.nodes,
          extensions: { code: "TIMEOUT" },
        })
      : error,
  );
}
