// `viewer`: the request's own records (the key's buyer, the key), each
// selected one read by its own statement of one record, by the condition
// the field declares for the request's viewer (read-metadata.ts `ViewerRead`).
import { type FieldNode, type GraphQLField, getNamedType, isNonNullType, isObjectType } from "graphql";
import { conditionSql } from "../conditions.js";
import type { ViewerRead, ViewerRecordRead } from "../read-metadata.js";
import { type PlannedRead, type RunStatement, recordStatement, rootRows } from "./read-statements.js";
import type { BoundRequest } from "./request-arguments.js";
import { fieldsOf } from "./selection-fields.js";
import type { PlanContext } from "./selection-walk.js";
import type { TableRef } from "./sql-writer.js";
import { PlanError, RowValueError, type Writer } from "./writers.js";

/** One field of the viewer's selection: a constant (`__typename`), or the read of one of its records. */
type Part = { prefix: string } & (
  | { constant: string }
  | {
      plan: PlanContext;
      record: ViewerRecordRead;
      statement: (condition: string) => string;
      table: TableRef;
      write: Writer;
      name: string;
      required: boolean;
    }
);

/** The planned read of the root field answering the viewer: an object of its records, in the selection's order. */
export function planViewerRead(
  newPlan: () => PlanContext,
  read: ViewerRead,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  query: RunStatement,
): PlannedRead {
  const type = getNamedType(field.type);
  if (!isObjectType(type) || !node.selectionSet) throw new PlanError(`${type.name} is not an object`);
  const parts = fieldsOf(node.selectionSet).map((selected, index): Part => {
    const prefix = `${index === 0 ? "" : ","}${JSON.stringify(selected.alias?.value ?? selected.name.value)}:`;
    const name = selected.name.value;
    if (name === "__typename") return { prefix, constant: JSON.stringify(type.name) };
    const own = type.getFields()[name];
    const record = read.records[name];
    if (!own || !record)
      throw new PlanError(`${type.name}.${name} declares no planned read`, "undeclared_field");
    if (own.args.length > 0)
      throw new PlanError(
        `${type.name}.${name} takes arguments its read does not declare`,
        "undeclared_field",
      );
    const plan = newPlan();
    const { scope, write } = rootRows(plan, own.type, record.model, selected.selectionSet);
    const statement = recordStatement(scope);
    return {
      prefix,
      plan,
      record,
      statement,
      table: scope.table,
      write,
      name,
      required: isNonNullType(own.type),
    };
  });
  const recordTypes = new Set<string>();
  let versioned = true;
  for (const part of parts) {
    if ("constant" in part) continue;
    const types = part.plan.recordTypes();
    if (types === null) versioned = false;
    else for (const recordType of types) recordTypes.add(recordType);
  }
  return {
    recordTypes: versioned ? [...recordTypes].sort() : null,
    prepare: (variables, context) => {
      const viewer = context.viewer;
      if (!viewer) return null;
      const reads: { part: Part; where: object | null; bound: BoundRequest | null }[] = parts.map((part) =>
        "constant" in part
          ? { part, where: null, bound: null }
          : { part, where: part.record.where(viewer), bound: part.plan.bind(viewer, variables, context) },
      );
      return async () => {
        // Each record by its own statement, side by side, as execution resolves the viewer's fields.
        const written = await Promise.all(
          reads.map(async ({ part, where, bound }) => {
            if ("constant" in part) return part.prefix + part.constant;
            if (!where || !bound) throw new Error(`Viewer.${part.name}: a record read without its request`);
            const sql = part.plan.requestSql();
            const text = part.statement(conditionSql(where, part.table, sql));
            const [row] = await query(text, [...bound.parameters, ...sql.values], context);
            // Execution answers a required record that is absent with an error.
            if (!row && part.required) throw new RowValueError(`Viewer.${part.name} is required and absent`);
            return part.prefix + (row ? part.write(row, bound.values) : "null");
          }),
        );
        return { kind: "record", json: `{${written.join("")}}` };
      };
    },
  };
}
