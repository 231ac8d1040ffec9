// A record in its REST shape, for events, by the operations of
// src/contract/event-records.ts: compiled and checked as routes are.
import type { GraphQLSchema } from "graphql";
import { EVENT_RECORD_DOCUMENTS } from "../contract/event-records.js";
import type { RestRoute } from "../contract/route.js";
import type { GraphQLContext } from "../schema/context.js";
import { compileRoute } from "./compiled-route.js";
import { applyEnumPlan } from "./rest-spelling.js";
import { withSharedResponsePaths } from "./shared-paths.js";

export interface RecordToRender {
  /** As the change log names it: order, buyer_product, buyer_product_approval, supplier_user, tagging. */
  recordType: string;
  /** For a tagging, the tagged record. */
  recordId: string;
  changedAt: Date;
}

export type RecordRenderer = (
  context: GraphQLContext,
  record: RecordToRender,
) => Promise<Record<string, unknown> | null>;

const UNDOCUMENTED = { success: { description: "" }, summary: "", tag: "", description: "" };

export function createRecordRenderer(schema: GraphQLSchema): RecordRenderer {
  const restSchema = withSharedResponsePaths(schema);
  const compiled = new Map(
    Object.entries(EVENT_RECORD_DOCUMENTS).map(([recordType, document]) => {
      // A GET by `{id}` that no path serves and no reference shows: only its document matters.
      const route: RestRoute = {
        operationId: `render ${recordType}`,
        method: "GET",
        path: "/{id}",
        document,
        ...UNDOCUMENTED,
      };
      return [recordType, compileRoute(restSchema, route)];
    }),
  );
  return async (context, record) => {
    const entry = compiled.get(record.recordType);
    if (!entry) return null;
    const variables: Record<string, unknown> = { id: record.recordId };
    if (record.recordType === "tagging") variables.attachedAt = record.changedAt.toISOString();
    const result = await entry.execute(context, variables);
    const [error] = result.errors ?? [];
    if (error || !result.data) throw error?.originalError ?? error ?? new Error("no data");
    applyEnumPlan(result.data, entry.enumPlan);
    const body = entry.responseBody(result.data)?.body;
    if (typeof body !== "object" || body === null) return null;
    // As the REST answer's JSON: date-times as text, amounts as numbers (events are stored as jsonb).
    return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  };
}
