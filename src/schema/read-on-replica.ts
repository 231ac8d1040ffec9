import type { ExecutionResult, GraphQLError } from "graphql";
import type { GraphQLContext, ReadChoice } from "./context.js";
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

/**
 * A GET's execution on the reader its read choice gives it (a replica only
 * for what the buyer's version covers); when it fails on a replica in a way
 * no resolver meant (no code: the replica went away, a replay conflict
 * cancelled it, or it could not be reached), it runs again on the primary, so no request fails because
 * a replica did.
 */
export async function readOnReplicaOrPrimary(
  reads: ReadChoice,
  versioned: boolean,
  execute: (prisma: GraphQLContext["prisma"]) => Promise<ExecutionResult>,
): Promise<ExecutionResult> {
  const reader = reads.reader(versioned);
  const result = await execute(reader.prisma);
  if (reader.source === "primary") return result;
  const failure = result.errors?.find(replicaFailure);
  if (!failure) return result;
  reads.failed(failure.originalError ?? failure);
  return execute(reads.reader(false).prisma);
}
