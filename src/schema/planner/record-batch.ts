// A record read for a batch of records at once: the single read's select
// with the record's id condition widened to `id = ANY($n)`, every other
// condition (the viewer's buyer) bound as for one record, and each row
// written by the same writers. Events render their records with it.
import type { FieldNode, GraphQLField, OperationDefinitionNode } from "graphql";
import type { GraphQLContext } from "../context.js";
import type { RecordRead } from "../read-metadata.js";
import { columnSql, whereSql } from "./prisma-sql.js";
import {
  type ArgumentsOf,
  type RunStatement,
  requestValues,
  rootRows,
  unlessRefused,
} from "./read-statements.js";
import type { PlanContext } from "./selection-walk.js";
import { PlanError, textOf } from "./writers.js";

export interface RecordBatchRead {
  /**
   * The JSON text of each record named in `ids`, in their order: null where
   * the viewer's buyer has no such record, or the read refuses the id.
   * Anything thrown is a failure of the compiled read: the records may be
   * read by executing the document instead.
   */
  run(ids: readonly string[], context: GraphQLContext): Promise<(string | null)[]>;
}

/** The one variable a batch read takes: the record's id. */
const ID_VARIABLE = "id";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The compiled read of a root field answering one record by `$id`, for many ids in one statement. */
export function planRecordBatch(
  plan: PlanContext,
  read: RecordRead,
  operation: OperationDefinitionNode,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): RecordBatchRead {
  const variables = operation.variableDefinitions ?? [];
  if (variables.length !== 1 || variables[0]?.variable.name.value !== ID_VARIABLE)
    throw new PlanError("a batch read takes the record's $id and nothing else");
  const { scope, write } = rootRows(plan, field.type, read.model, node.selectionSet);
  const idColumn = scope.table.model.fields.get("id");
  if (idColumn?.kind !== "scalar") throw new PlanError(`${read.model} has no id column`);
  // After the writers: the same expression read by a field is read once.
  const idKey = scope.column(textOf(idColumn, columnSql(scope.table, idColumn)));
  const select = `SELECT ${scope.selectList()} FROM ${scope.from()}`;
  return {
    run: async (ids, context) => {
      const viewer = context.viewer;
      if (!viewer || ids.length === 0) return ids.map(() => null);
      // Each id's condition as its single read makes it; they may differ only in the id.
      const recordIds = ids.map((id) => {
        const args = argumentsOf({ [ID_VARIABLE]: id });
        const where = args && unlessRefused(() => read.where(args, viewer));
        return where ? { where, id: idOf(where) } : null;
      });
      const [first] = recordIds.flatMap((entry) => entry ?? []);
      if (!first) return ids.map(() => null);
      const shared = withoutId(first.where);
      for (const entry of recordIds)
        if (entry && !sameCondition(withoutId(entry.where), shared))
          throw new Error(`${read.model}: records' conditions differ in more than their id`);
      const sql = plan.requestSql();
      const wanted = recordIds.flatMap((entry) => (entry ? [entry.id] : []));
      const text = `${select} WHERE ${whereSql({ ...shared, id: { in: wanted } }, scope.table, sql)}`;
      const rows = await query(text, [...plan.parametersFor(viewer), ...sql.values], context);
      const request = requestValues(context);
      const written = new Map<string, string>();
      for (const row of rows) {
        const id = row[idKey];
        if (typeof id === "string") written.set(id, write(row, request));
      }
      return recordIds.map((entry) => (entry ? (written.get(entry.id) ?? null) : null));
    },
  };
}

/** The id a record read's condition names, which the batch widens to a list. */
function idOf(where: object): string {
  const id: unknown = isRecord(where) ? where.id : undefined;
  if (typeof id !== "string") throw new Error("a record read's condition names no id");
  return id;
}

function withoutId(where: object): Record<string, unknown> {
  const { id: _id, ...rest } = isRecord(where) ? where : {};
  return rest;
}

/** The conditions other than the id: plain values of the viewer, compared as JSON. */
function sameCondition(left: Record<string, unknown>, right: Record<string, unknown>): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
