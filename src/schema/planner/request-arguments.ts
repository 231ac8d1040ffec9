// What a plan takes from each request: the viewer, in place of the stand-in
// it was planned for, the arguments of fields below the root (a nested
// connection's page), and the refusals that leave a request to execution.
import { randomUUID } from "node:crypto";
import type { FieldNode, GraphQLField } from "graphql";
import type { Viewer } from "../../auth/viewer.js";
import { DomainError } from "../../domain/errors.js";
import type { PageRequest } from "../page-window.js";
import type { RequestValues } from "./writers.js";

// Selects that depend on the caller (a relation narrowed to the viewer's buyer)
// are planned with this in place of the buyer's id; each request binds its own.
export const VIEWER_BUYER = randomUUID();
export const PLANNING_VIEWER: Viewer = { buyerId: VIEWER_BUYER, apiKeyId: VIEWER_BUYER };

/** A field's arguments for a request's variables, as its resolver receives them; null when execution refuses them. */
export type FieldArguments = (
  parent: string,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Readonly<Record<string, unknown>>,
) => Record<string, unknown> | null;

/**
 * What a place of the selection takes from each request's arguments (a
 * nested connection's page): parameters of the plan named by a token, each
 * request's values in their place, and the page its writer reads (null when
 * execution refuses the arguments: the writer then leaves the request to it).
 */
export type RequestSlot = (variables: Readonly<Record<string, unknown>>) => {
  parameters: readonly (readonly [token: string, value: string | null])[];
  page: PageRequest | null;
};

/** A request's parameters for the plan's statement and the values its writers read. */
export interface BoundRequest {
  parameters: (string | null)[];
  values: RequestValues;
}

/** Runs `build`; null when it refuses the request (a domain error: normal execution words it). */
export function unlessRefused<Result>(build: () => Result): Result | null {
  try {
    return build();
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}
