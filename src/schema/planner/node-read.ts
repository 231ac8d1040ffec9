// `node(id:)` and `nodes(ids:)`: the records global IDs name, each of
// whichever Node type its ID says. Each Node type's selection (the fields
// below the root field, with the fragments that apply to that type) is
// planned as a read of its own; a request decodes the IDs and runs one
// statement for each type they name.
import type { FieldNode, GraphQLSchema } from "graphql";
import { isObjectType, Kind } from "graphql";
import { conditionSql } from "../conditions.js";
import type { GraphQLContext } from "../context.js";
import { decodeGlobalId, NODE_TYPES, type NodeTypeName } from "../global-ids.js";
import type { NodeRead, NodesRead } from "../read-metadata.js";
import { fieldsOfType } from "./collected-selection.js";
import {
  type ArgumentsOf,
  type PlannedRead,
  type RunStatement,
  recordStatement,
  rootRows,
  unlessRefused,
} from "./read-statements.js";
import type { BoundRequest } from "./request-arguments.js";
import type { PlanContext } from "./selection-walk.js";
import { columnSql, type TableRef } from "./sql-writer.js";
import { PlanError, textOf, type Writer } from "./writers.js";

/** One Node type's read: its planning, rows' table, statement for a condition, writer, and where its id is read. */
interface TypeRead {
  plan: PlanContext;
  table: TableRef;
  statement: (condition: string) => string;
  write: Writer;
  idKey: number;
}

/** The selection below `node` or `nodes` planned for each Node type; `many` reads every row a condition matches. */
function typeReads(
  schema: GraphQLSchema,
  newPlan: () => PlanContext,
  node: FieldNode,
  many: boolean,
): ReadonlyMap<NodeTypeName, TypeRead> {
  if (!node.selectionSet) throw new PlanError(`${node.name.value} has no selection`);
  const selectionSet = node.selectionSet;
  return new Map(
    NODE_TYPES.map((name): [NodeTypeName, TypeRead] => {
      const type = schema.getType(name);
      if (!isObjectType(type)) throw new PlanError(`${name} is not an object type`);
      const plan = newPlan();
      const selections = {
        kind: Kind.SELECTION_SET,
        selections: fieldsOfType(schema, selectionSet, type),
      } as const;
      const { scope, write } = rootRows(plan, type, name, selections);
      const id = scope.table.model.fields.get("id");
      if (id?.kind !== "scalar") throw new PlanError(`${name} has no id column`);
      // Rows of many records are matched to their IDs by the id they read.
      const idKey = many ? scope.column(textOf(id, columnSql(scope.table, id))) : -1;
      const select = `SELECT ${scope.selectList()} FROM ${scope.from()}`;
      const statement = many ? (condition: string) => `${select} WHERE ${condition}` : recordStatement(scope);
      return [name, { plan, table: scope.table, statement, write, idKey }];
    }),
  );
}

/** The change log's record types any type's read reads; null when one reads a table the log does not version. */
function recordTypesOf(reads: ReadonlyMap<NodeTypeName, TypeRead>): readonly string[] | null {
  const recordTypes = new Set<string>();
  for (const { plan } of reads.values()) {
    const types = plan.recordTypes();
    if (types === null) return null;
    for (const type of types) recordTypes.add(type);
  }
  return [...recordTypes].sort();
}

/** Runs one type's statement for `where` (its Prisma `where`), with the request's viewer. */
function runTypeRead(
  read: TypeRead,
  where: object,
  bound: BoundRequest,
  context: GraphQLContext,
  query: RunStatement,
) {
  const sql = read.plan.requestSql();
  const text = read.statement(conditionSql(where, read.table, sql));
  return query(text, [...bound.parameters, ...sql.values], context);
}

/** The planned read of `node`: one record read for each Node type. */
export function planNodeRead(
  schema: GraphQLSchema,
  newPlan: () => PlanContext,
  read: NodeRead,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): PlannedRead {
  const byType = typeReads(schema, newPlan, node, false);
  return {
    recordTypes: recordTypesOf(byType),
    prepare: (variables, context) => {
      const viewer = context.viewer;
      const args = viewer && argumentsOf(variables);
      // An ID that names no record of a Node type is refused by execution (VALIDATION_FAILED).
      const decoded = args && decodeGlobalId(String(args.id));
      const planned = decoded && byType.get(decoded.type);
      if (!viewer || !decoded || !planned) return null;
      const where = unlessRefused(() => read[decoded.type](decoded.uuid, viewer));
      const bound = where && planned.plan.bind(viewer, variables, context);
      if (!where || !bound) return null;
      return async () => {
        const [row] = await runTypeRead(planned, where, bound, context, query);
        return { kind: "record", json: row ? planned.write(row, bound.values) : null };
      };
    },
  };
}

/** The planned read of `nodes`: each ID's record in the IDs' order, null where the viewer has none. */
export function planNodesRead(
  schema: GraphQLSchema,
  newPlan: () => PlanContext,
  read: NodesRead,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): PlannedRead {
  const byType = typeReads(schema, newPlan, node, true);
  return {
    recordTypes: recordTypesOf(byType),
    prepare: (variables, context) => {
      const viewer = context.viewer;
      const ids = viewer && argumentsOf(variables)?.ids;
      // Too many IDs, or one that names no record of a Node type, are refused by execution (VALIDATION_FAILED).
      if (!viewer || !Array.isArray(ids) || ids.length > read.maxIds) return null;
      const decoded = ids.map((id) => decodeGlobalId(String(id)));
      const uuidsByType = new Map<NodeTypeName, Set<string>>();
      for (const item of decoded) {
        if (!item) return null;
        const uuids = uuidsByType.get(item.type) ?? new Set();
        uuidsByType.set(item.type, uuids.add(item.uuid));
      }
      const wheres: { typeRead: TypeRead; where: object; type: NodeTypeName; bound: BoundRequest }[] = [];
      for (const [type, uuids] of uuidsByType) {
        const typeRead = byType.get(type);
        const where = unlessRefused(() => read.visible[type]([...uuids], viewer));
        const bound = where && typeRead?.plan.bind(viewer, variables, context);
        if (!typeRead || !where || !bound) return null;
        wheres.push({ typeRead, where, type, bound });
      }
      return async () => {
        // One statement per type, side by side, as execution resolves the items.
        const rowsOfTypes = await Promise.all(
          wheres.map(({ typeRead, where, bound }) => runTypeRead(typeRead, where, bound, context, query)),
        );
        const found = new Map<string, string>();
        wheres.forEach(({ typeRead, type, bound }, index) => {
          for (const row of rowsOfTypes[index] ?? [])
            found.set(`${type}:${String(row[typeRead.idKey])}`, typeRead.write(row, bound.values));
        });
        const items = decoded.map((item) => (item && found.get(`${item.type}:${item.uuid}`)) ?? "null");
        return { kind: "list", json: `[${items.join(",")}]` };
      };
    },
  };
}
