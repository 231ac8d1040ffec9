import type { ExecutionResult, GraphQLError } from "graphql";
import type { Reader } from "../db/readers.js";
import type { GraphQLContext } from "./context.js";
import { UNAVAILABLE_CODE } from "./domain-errors.js";

/**
 * Whether an error on a replica is the replica's failure rather than the
 * request's: one no resolver meant (no code: a replay conflict cancelled it),
 * or the replica could not be reached (going down, restarting).
 */
export function replicaFailure(error: GraphQLError): boolean {
  const code = error.extensions?.code;
  return typeof code !== "string" || code === UNAVAILABLE_CODE;
}

/** The replica's failure among an execution's errors, as the resolver met it; undefined when there is none. */
export function replicaFailureIn(result: ExecutionResult): unknown {
  const failure = result.errors?.find(replicaFailure);
  return failure && (failure.originalError ?? failure);
}

/**
 * One read on the reader chosen for it before it runs, by the context's read
 * choice (a replica only for what the buyer's version covers): the context
 * `read` is given reads there alone, through its resolvers' client and its
 * planned reads' choice alike. When the read fails on a replica (`failure`
 * finds the replica's failure in its outcome), it runs once more on the
 * primary, so no request fails because a replica did.
 */
export async function readOnReplicaOrPrimary<Outcome>(
  context: GraphQLContext,
  versioned: boolean,
  read: (context: GraphQLContext) => Promise<Outcome>,
  failure: (outcome: Outcome) => unknown,
): Promise<Outcome> {
  const { reads } = context;
  if (!reads) return read(context);
  const on = (reader: Reader): GraphQLContext => ({
    ...context,
    prisma: reader.prisma,
    reads: { reader: () => reader, failed: reads.failed },
  });
  const reader = reads.reader(versioned);
  const outcome = await read(on(reader));
  if (reader.source === "primary") return outcome;
  const failed = failure(outcome);
  if (failed === undefined) return outcome;
  reads.failed(failed);
  return read(on(reads.reader(false)));
}
