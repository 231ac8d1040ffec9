// Records in their REST shape, for events, by the operations of
// src/contract/event-records.ts: read and checked as routes are.

import {
  type ExecutionResult,
  type GraphQLSchema,
  getNamedType,
  Kind,
  parse,
  print,
  validate,
} from "graphql";
import { EVENT_RECORD_DOCUMENTS } from "../contract/event-records.js";
import type { RestRoute } from "../contract/route.js";
import type { GraphQLContext } from "../schema/context.js";
import { executeOperation } from "../schema/execution.js";
import { encodeGlobalId, NODE_TYPES, type NodeTypeName } from "../schema/global-ids.js";
import type { ReadPlanner, RecordBatchRead } from "../schema/planner/read-planner.js";
import { MAX_NODE_IDS } from "../schema/types/node.js";
import { REST_SPELLING } from "./planned-read.js";
import { applyEnumPlan } from "./rest-spelling.js";
import { type RouteOperation, readRouteOperation } from "./route-operation.js";

export interface RecordToRender {
  /** As the change log names it: order, buyer_product, buyer_product_approval, supplier_user, tagging. */
  recordType: string;
  /** For a tagging, the tagged record. */
  recordId: string;
  changedAt: Date;
}

/**
 * Records of one buyer (the context's viewer), in the order given, each as the
 * JSON text of its REST body: the bytes the REST read sends, keys in its order
 * and amounts with every digit. Null where the buyer has none.
 */
export type RecordRenderer = (
  context: GraphQLContext,
  records: readonly RecordToRender[],
) => Promise<(string | null)[]>;

/**
 * Records of any buyers, in the order given: each buyer's rendered in one
 * call, under that buyer's context.
 */
export async function renderRecordsOfBuyers(
  render: RecordRenderer,
  contextOf: (buyerId: string) => GraphQLContext,
  records: readonly (RecordToRender & { buyerId: string })[],
): Promise<(string | null)[]> {
  const rendered: (string | null)[] = records.map(() => null);
  const indexesByBuyer = new Map<string, number[]>();
  for (const [index, { buyerId }] of records.entries()) {
    const indexes = indexesByBuyer.get(buyerId) ?? [];
    indexes.push(index);
    indexesByBuyer.set(buyerId, indexes);
  }
  for (const [buyerId, indexes] of indexesByBuyer) {
    const objects = await render(
      contextOf(buyerId),
      indexes.flatMap((index) => records[index] ?? []),
    );
    for (const [position, index] of indexes.entries()) rendered[index] = objects[position] ?? null;
  }
  return rendered;
}

/** What the renderer reads records from rows with (src/schema/planner/), and whom it tells how each type is read. */
export interface RecordReadPlanning {
  planner: ReadPlanner;
  /** Once: every record type, with null when its records are read from rows, else why they are executed. */
  planned(plans: readonly { recordType: string; reason: string | null }[]): void;
  /** A batch read of `recordType` threw; its records were rendered by executing the document instead. */
  failed(recordType: string, error: unknown): void;
}

const UNDOCUMENTED = { success: { description: "" }, summary: "", tag: "", description: "" };

const isNodeType = (name: string): name is NodeTypeName => (NODE_TYPES as readonly string[]).includes(name);

/**
 * The single read's selection under `nodes(ids:)`, so that a batch's records
 * of one type are read with one statement per MAX_NODE_IDS records instead of
 * one each. Its rows come out as the single read's do, and go through the
 * same response shaping, so an object is the same either way.
 */
function compileNodesRead(schema: GraphQLSchema, single: RouteOperation) {
  const [root] = single.operation.selectionSet.selections;
  const type = getNamedType(single.selections.get(single.response.at)?.field.type);
  if (root?.kind !== Kind.FIELD || !root.selectionSet || !type || !isNodeType(type.name)) return null;
  const document = parse(
    `query RenderNodes($ids: [ID!]!) { nodes(ids: $ids) { ... on ${type.name} ${print(root.selectionSet)} } }`,
  );
  const errors = validate(schema, document);
  if (errors.length > 0)
    throw new Error(`event record ${type.name}: ${errors.map((e) => e.message).join("; ")}`);
  const typeName = type.name;
  return async (context: GraphQLContext, ids: readonly string[]): Promise<unknown[]> => {
    const result = await executeOperation(schema, document, context, {
      ids: ids.map((id) => encodeGlobalId(typeName, id)),
    });
    const nodes = dataOf(result).nodes;
    return Array.isArray(nodes) ? nodes : [];
  };
}

/** The data of an execution without errors; its first error otherwise, as the resolver threw it. */
function dataOf(result: ExecutionResult): Record<string, unknown> {
  const [error] = result.errors ?? [];
  if (error || !result.data) throw error?.originalError ?? error ?? new Error("no data");
  return result.data;
}

/** The batch read of a record type's single read, or why its records are executed. */
function planBatchRead(
  planner: ReadPlanner,
  single: RouteOperation,
): { planned: RecordBatchRead } | { reason: string } {
  if (single.response.spread !== undefined) return { reason: "its response spreads a field" };
  return planner.planRecordBatch(single.operation, REST_SPELLING);
}

/** How one record type is rendered: its single read, its `nodes` read, and its batch read from rows when planned. */
interface RecordTypeRead {
  single: RouteOperation;
  nodes: ReturnType<typeof compileNodesRead>;
  batch: RecordBatchRead | null;
  /** Why its records are executed rather than read from rows; null when they are read from rows. */
  reason: string | null;
}

function recordTypeReads(
  schema: GraphQLSchema,
  readPlanning: RecordReadPlanning | undefined,
): Map<string, RecordTypeRead> {
  return new Map(
    Object.entries(EVENT_RECORD_DOCUMENTS).map(([recordType, document]) => {
      // A GET by `{id}` that no path serves and no reference shows: only its document matters.
      const route: RestRoute = {
        operationId: `render ${recordType}`,
        method: "GET",
        path: "/{id}",
        document,
        ...UNDOCUMENTED,
      };
      const single = readRouteOperation(schema, route);
      const batch = readPlanning ? planBatchRead(readPlanning.planner, single) : null;
      const read: RecordTypeRead = {
        single,
        nodes: compileNodesRead(schema, single),
        batch: batch && "planned" in batch ? batch.planned : null,
        reason: batch && "reason" in batch ? batch.reason : null,
      };
      return [recordType, read];
    }),
  );
}

/**
 * The REST body the single read would answer, from what its root field
 * resolved to, written as the REST handler writes it (amounts exact).
 */
function shape(single: RouteOperation, value: unknown): string | null {
  const data = { [single.response.at]: value };
  applyEnumPlan(data, single.enumPlan);
  const body = single.responseBody(data)?.body;
  if (typeof body !== "object" || body === null) return null;
  return JSON.stringify(body);
}

async function renderOne(single: RouteOperation, context: GraphQLContext, record: RecordToRender) {
  const variables: Record<string, unknown> = { id: record.recordId };
  if (record.recordType === "tagging") variables.attachedAt = record.changedAt.toISOString();
  const data = dataOf(await single.execute(context, variables));
  return shape(single, data[single.response.at]);
}

/** The records at `indexes`, of one type, rendered by executing its document into `rendered`. */
async function executeRecords(
  { single, nodes }: RecordTypeRead,
  context: GraphQLContext,
  records: readonly RecordToRender[],
  indexes: readonly number[],
  rendered: (string | null)[],
): Promise<void> {
  if (!nodes) {
    // Taggings have no read by id (each lists the tags added at its own time): one execution each,
    // side by side, so that their taggings and tags are loaded together (src/schema/batch.ts).
    await Promise.all(
      indexes.map(async (index) => {
        const record = records[index];
        if (record) rendered[index] = await renderOne(single, context, record);
      }),
    );
    return;
  }
  for (let start = 0; start < indexes.length; start += MAX_NODE_IDS) {
    const chunk = indexes.slice(start, start + MAX_NODE_IDS);
    const values = await nodes(
      context,
      chunk.map((index) => records[index]?.recordId ?? ""),
    );
    for (const [position, index] of chunk.entries())
      rendered[index] = shape(single, values[position] ?? null);
  }
}

/** The records at `indexes`, of one type, read from rows into `rendered`. */
async function readFromRows(
  batch: RecordBatchRead,
  context: GraphQLContext,
  records: readonly RecordToRender[],
  indexes: readonly number[],
  rendered: (string | null)[],
): Promise<void> {
  const texts = await batch.run(
    indexes.map((index) => records[index]?.recordId ?? ""),
    context,
  );
  for (const [position, index] of indexes.entries()) rendered[index] = texts[position] ?? null;
}

/**
 * Without `readPlanning`, every record is rendered by executing its
 * document; with them, a record type whose read compiles is read from rows,
 * one statement for a batch's records of that type, to the same bytes.
 */
export function createRecordRenderer(
  schema: GraphQLSchema,
  readPlanning?: RecordReadPlanning,
): RecordRenderer {
  const reads = recordTypeReads(schema, readPlanning);
  readPlanning?.planned([...reads].map(([recordType, { reason }]) => ({ recordType, reason })));
  return async (context, records) => {
    const rendered: (string | null)[] = records.map(() => null);
    const byType = new Map<string, number[]>();
    for (const [index, record] of records.entries()) {
      byType.set(record.recordType, [...(byType.get(record.recordType) ?? []), index]);
    }
    // Side by side, so that fields loaded per request (src/schema/batch.ts) are loaded once for all.
    await Promise.all(
      [...byType].map(async ([recordType, indexes]) => {
        const read = reads.get(recordType);
        if (!read) return;
        if (read.batch) {
          // A read that fails is reported, and its records are executed instead.
          try {
            await readFromRows(read.batch, context, records, indexes, rendered);
            return;
          } catch (error) {
            readPlanning?.failed(recordType, error);
          }
        }
        await executeRecords(read, context, records, indexes, rendered);
      }),
    );
    return rendered;
  };
}
