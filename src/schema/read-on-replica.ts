import type { ExecutionResult } from "graphql";
import type { GraphQLContext, ReadChoice } from "./context.js";

/**
 * A GET's execution on the reader its read choice gives it (a replica only
 * for what the buyer's version covers); when it fails on a replica in a way
 * no resolver meant (no code: the replica went away, a replay conflict
 * cancelled it), it runs again on the primary, so no request fails because
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
  const failure = result.errors?.find((error) => typeof error.extensions?.code !== "string");
  if (!failure) return result;
  reads.failed(failure.originalError ?? failure);
  return execute(reads.reader(false).prisma);
}
