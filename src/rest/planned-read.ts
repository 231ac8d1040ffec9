// A REST read answered by the schema's planned reads (src/schema/planner/):
// the planner writes the body's JSON text from the rows, in the contract's
// spelling given here; the adapter never sees SQL. A route whose document the
// planner cannot compile, or a request it refuses, is executed as every other
// route is, and both ways give the same bytes (test/rest/planned-reads.test.ts).
import type { ExecutionResult } from "graphql";
import { isVersionedRead } from "../contract/route.js";
import type { GraphQLContext } from "../schema/context.js";
import { jsonArrayText } from "../schema/planner/json-parts.js";
import type {
  OutputSpelling,
  PlannedRead,
  ReadOutcome,
  ReadPlanner,
} from "../schema/planner/read-planner.js";
import { applyEnumPlan, enumSpelling } from "./rest-spelling.js";
import type { RouteOperation } from "./route-operation.js";

/** The contract's spelling: enum values as `contractValue` says, decimals as exact JSON numbers. */
export const REST_SPELLING: OutputSpelling = {
  enumValue: (type, value) => JSON.stringify(enumSpelling(type).toContract.get(value.name) ?? value.name),
  decimal: (digits) => digits,
};

/** What the REST adapter is given to compile its reads with, and whom it tells how they run. */
export interface RestReadPlanning {
  planner: ReadPlanner;
  /** Once, at startup: every GET route, with null when its document is planned, else why it is executed. */
  planned(plans: readonly { operationId: string; reason: string | null }[]): void;
  /** A planned read threw; the request failed as an execution that threw would. */
  failed(operationId: string, error: unknown): void;
}

/**
 * A route's planned read for one request, or null when the request is to be
 * executed instead; the read answers its body (null: no record), or throws.
 */
export type RouteRead = (
  variables: Record<string, unknown>,
  context: GraphQLContext,
) => (() => Promise<ReadBody | null>) | null;

/** A GET route's planned read, and the change log's record types its answers can show (null: any of the buyer's). */
export interface PlannedRouteRead {
  read: RouteRead;
  recordTypes: readonly string[] | null;
}

/**
 * Plans every GET route's read once and tells `reads` how each runs; the
 * result gives a route's planned read, if it has one.
 */
export function routeReadPlans(
  reads: RestReadPlanning | undefined,
  entries: readonly RouteOperation[],
): (entry: RouteOperation) => PlannedRouteRead | undefined {
  const planned = new Map<RouteOperation, PlannedRouteRead>();
  if (!reads) return () => undefined;
  const plans = entries
    .filter((entry) => entry.route.method === "GET")
    .map((entry) => {
      const plan = planRouteRead(reads.planner, entry);
      if ("planned" in plan)
        planned.set(entry, {
          recordTypes: plan.planned.recordTypes,
          read: (variables, context) => {
            const read = plan.planned.prepare(variables, context);
            return read && (async () => bodyOfOutcome(await read()));
          },
        });
      return { operationId: entry.route.operationId, reason: "reason" in plan ? plan.reason : null };
    });
  reads.planned(plans);
  return (entry) => planned.get(entry);
}

/** A read's body as JSON text, and the cursor of the next page (null on the last); null for a record not found. */
export interface ReadBody {
  json: string;
  nextCursor: string | null;
}

/** The planned read of a GET route, or why there is none. */
export function planRouteRead(
  planner: ReadPlanner,
  entry: RouteOperation,
): { planned: PlannedRead } | { reason: string } {
  if (entry.route.method !== "GET") return { reason: "it is not a read" };
  // Planned reads show the buyer's records, which a replica holding the buyer's version may serve.
  if (!isVersionedRead(entry.route)) return { reason: "it shows data the change log does not version" };
  if (entry.response.spread !== undefined) return { reason: "its response spreads a field" };
  return planner.plan(entry.operation, REST_SPELLING);
}

/** The body of a planned read's outcome, shaped as `RouteOperation.responseBody` shapes an executed one. */
export function bodyOfOutcome(outcome: ReadOutcome): ReadBody | null {
  if (outcome.kind === "record")
    return outcome.json === null ? null : { json: outcome.json, nextCursor: null };
  if (outcome.kind === "list") return { json: outcome.json, nextCursor: null };
  const { hasNextPage, endCursor } = outcome.pageInfo;
  return { json: jsonArrayText(outcome.nodes), nextCursor: hasNextPage ? endCursor : null };
}

/** The body of an executed read (its data in place, without errors), as the adapter has always written it. */
export function bodyOfResult(
  entry: RouteOperation,
  data: NonNullable<ExecutionResult["data"]>,
): ReadBody | null {
  applyEnumPlan(data, entry.enumPlan);
  const read = entry.responseBody(data);
  return read && { json: JSON.stringify(read.body), nextCursor: read.nextCursor };
}
