// A record read for a batch of records at once: the single read's select
// with the read's condition for all the ids (`id = ANY($n)` and the
// viewer's buyer, as for one record), and each row written by the same
// writers. Events render their records with it.
import type { FieldNode, GraphQLField, OperationDefinitionNode } from "graphql";
import { conditionSql } from "../conditions.js";
import type { GraphQLContext } from "../context.js";
import type { RecordRead } from "../read-metadata.js";
import { type ArgumentsOf, type RunStatement, rootRows, unlessRefused } from "./read-statements.js";
import type { PlanContext } from "./selection-walk.js";
import { columnSql } from "./sql-writer.js";
import { PlanError, textOf } from "./writers.js";

export interface RecordBatchRead {
  /**
   * The JSON text of each record named in `ids`, in their order: null where
   * the viewer's buyer has no such record, or the read refuses the id.
   * Anything thrown is a failure of the planned read: the records may be
   * read by executing the document instead.
   */
  run(ids: readonly string[], context: GraphQLContext): Promise<(string | null)[]>;
}

/** The one variable a batch read takes: the record's id. */
const ID_VARIABLE = "id";

/** The planned read of a root field answering one record by `$id`, for many ids in one statement. */
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
      // Each id as its single read's arguments give it; an id they refuse names no record.
      const recordIds = ids.map((id) => {
        const args = argumentsOf({ [ID_VARIABLE]: id });
        return args && unlessRefused(() => read.id(args));
      });
      const wanted = recordIds.flatMap((id) => (id === null ? [] : [id]));
      if (wanted.length === 0) return ids.map(() => null);
      const sql = plan.requestSql();
      const text = `${select} WHERE ${conditionSql(read.where(wanted, viewer), scope.table, sql)}`;
      // The arguments of places below the root are the document's own: the batch's variable is the id alone.
      const bound = plan.bind(viewer, { [ID_VARIABLE]: wanted[0] }, context);
      if (!bound) throw new Error(`${read.model}: the document's arguments are refused`);
      const rows = await query(text, [...bound.parameters, ...sql.values], context);
      const request = bound.values;
      const written = new Map<string, string>();
      for (const row of rows) {
        const id = row[idKey];
        if (typeof id === "string") written.set(id, write(row, request));
      }
      return recordIds.map((id) => (id === null ? null : (written.get(id) ?? null)));
    },
  };
}
