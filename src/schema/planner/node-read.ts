// `node(id:)`: the record a global ID names, of whichever Node type the ID
// says. Each Node type's selection (the fields below `node`, with the
// fragments that apply to that type) is planned as a record read of its own;
// a request decodes the ID and runs the one statement of its type.
import type { FieldNode, GraphQLSchema } from "graphql";
import { isObjectType, Kind } from "graphql";
import { conditionSql } from "../conditions.js";
import { decodeGlobalId, NODE_TYPES, type NodeTypeName } from "../global-ids.js";
import type { NodeRead } from "../read-metadata.js";
import { fieldsOfType } from "./collected-selection.js";
import {
  type ArgumentsOf,
  type CompiledRead,
  type RunStatement,
  recordStatement,
  requestValues,
  rootRows,
  unlessRefused,
} from "./read-statements.js";
import type { PlanContext } from "./selection-walk.js";
import type { TableRef } from "./sql-writer.js";
import { PlanError, type Writer } from "./writers.js";

/** The compiled read of `node`: one record read for each Node type. */
export function planNodeRead(
  schema: GraphQLSchema,
  newPlan: () => PlanContext,
  read: NodeRead,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): CompiledRead {
  if (!node.selectionSet) throw new PlanError("node has no selection");
  const selectionSet = node.selectionSet;
  const byType = new Map(
    NODE_TYPES.map(
      (
        name,
      ): [
        NodeTypeName,
        { plan: PlanContext; table: TableRef; statement: (condition: string) => string; write: Writer },
      ] => {
        const type = schema.getType(name);
        if (!isObjectType(type)) throw new PlanError(`${name} is not an object type`);
        const plan = newPlan();
        const selections = {
          kind: Kind.SELECTION_SET,
          selections: fieldsOfType(schema, selectionSet, type),
        } as const;
        const { scope, write } = rootRows(plan, type, name, selections);
        const statement = recordStatement(scope);
        return [name, { plan, table: scope.table, statement, write }];
      },
    ),
  );
  const recordTypes = new Set<string>();
  let versioned = true;
  for (const { plan } of byType.values()) {
    const types = plan.recordTypes();
    if (types === null) versioned = false;
    for (const type of types ?? []) recordTypes.add(type);
  }
  return {
    recordTypes: versioned ? [...recordTypes].sort() : null,
    prepare: (variables, context) => {
      const viewer = context.viewer;
      const args = viewer && argumentsOf(variables);
      // An ID that names no record of a Node type is refused by execution (VALIDATION_FAILED).
      const decoded = args && decodeGlobalId(String(args.id));
      const planned = decoded && byType.get(decoded.type);
      if (!viewer || !decoded || !planned) return null;
      const { plan, table, statement, write } = planned;
      const where = unlessRefused(() => read[decoded.type](decoded.uuid, viewer));
      if (!where) return null;
      return async () => {
        const sql = plan.requestSql();
        const text = statement(conditionSql(where, table, sql));
        const [row] = await query(text, [...plan.parametersFor(viewer), ...sql.values], context);
        return { kind: "record", json: row ? write(row, requestValues(context)) : null };
      };
    },
  };
}
