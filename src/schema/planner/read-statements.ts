// The statement a planned read runs for each request, a record's or a
// page's: the planned select with the request's own conditions, the viewer's
// parameters, and its answer written from the rows.
import { createHash } from "node:crypto";
import {
  type FieldNode,
  type GraphQLField,
  type GraphQLOutputType,
  getNamedType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";
import type { Viewer } from "../../auth/viewer.js";
import { allOf, conditionSql, orderSql } from "../conditions.js";
import type { GraphQLContext } from "../context.js";
import { encodeCursor } from "../cursor.js";
import { type PageInfoShape, pageInfoOf, pageNodes, pageWindow } from "../page-window.js";
import type { RecordRead, RootListRead } from "../read-metadata.js";
import { holdsIllFormedText } from "../well-formed-text.js";
import { nodeSelectionOf, nodesOfPlaces, positionOf } from "./connection-writer.js";
import { type BoundRequest, unlessRefused } from "./request-arguments.js";
import { fieldsOf } from "./selection-fields.js";
import type { PlanContext } from "./selection-walk.js";

export { unlessRefused } from "./request-arguments.js";

import { columnSql, quoted, type SqlWriter, type TableRef } from "./sql-writer.js";
import type { Scope } from "./statement.js";
import { ArgumentsRefusedError, PlanError, type Row, textOf, type Writer } from "./writers.js";

/**
 * Runs one statement with `$1`… parameters for a request (the Database's
 * `query`: PGlite and PostgreSQL alike), wherever that request's reads run.
 * `name`, when given, names the text: PostgreSQL parses and plans a named
 * statement once per connection, and keeps it as long as the connection.
 */
export type QueryRows = (
  text: string,
  values: readonly (string | null)[],
  context: GraphQLContext,
  name: string | undefined,
) => Promise<Row[]>;

/** A statement run for a request, named by the planner (`namedQuery`). */
export type RunStatement = (
  text: string,
  values: readonly (string | null)[],
  context: GraphQLContext,
) => Promise<Row[]>;

/**
 * How many texts a planner names. Each stays prepared on every connection
 * that ran it, and documents registered by clients could bring texts
 * without end: past this many, a text runs unnamed (planned each time).
 */
const NAMED_TEXTS = 500;

/** `query` with each text named, one name always meaning one text, up to NAMED_TEXTS texts. */
export function namedQuery(query: QueryRows): RunStatement {
  const names = new Map<string, string>();
  return (text, values, context) => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_TEXTS) {
      name = `planned_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
      names.set(text, name);
    }
    return query(text, values, context, name);
  };
}

/**
 * What a planned read answers: a record's JSON text (null: none), or a
 * page's nodes' JSON texts, its page info, and the count of every item its
 * filters match (null when the selection has no `totalCount`).
 */
export type ReadOutcome =
  | { kind: "record"; json: string | null }
  /** A list of records' JSON texts, as one text. */
  | { kind: "list"; json: string }
  | {
      kind: "page";
      /** The nodes' texts as the first place selecting them writes them (connection-writer.ts's `PageAnswer`). */
      nodes: readonly string[];
      /** The same nodes' texts for each further place selecting them. */
      spelledAgain: readonly (readonly string[])[];
      /** Each node's cursor, when the selection has an edge's `cursor`; else null. */
      cursors: readonly string[] | null;
      pageInfo: PageInfoShape;
      totalCount: number | null;
    };

export interface PlannedRead {
  /**
   * The change log's record types whose writes can change its answers (the
   * tables its statement reads); null when it reads a table the log does not
   * version.
   */
  readonly recordTypes: readonly string[] | null;
  /**
   * The read for one request, or null when the request's arguments are
   * refused (a bad cursor, a global ID of another type, …): normal execution
   * answers those, with the problems it always gives. Deciding sends no
   * statement. Anything the read throws is a failure of the planned read,
   * and the request may run normally.
   */
  prepare(
    variables: Readonly<Record<string, unknown>>,
    context: GraphQLContext,
  ): (() => Promise<ReadOutcome>) | null;
}

/** A root field's arguments for a request's variables, as its resolver receives them; null when refused. */
export type ArgumentsOf = (variables: Readonly<Record<string, unknown>>) => Record<string, unknown> | null;

/**
 * What a root field reads for the request's viewer and variables; null without
 * a viewer or when refused. Arguments holding ill-formed text are refused, so
 * that execution answers them as the resolver's check does.
 */
function requestOf<Request>(
  plan: PlanContext,
  context: GraphQLContext,
  variables: Readonly<Record<string, unknown>>,
  argumentsOf: ArgumentsOf,
  build: (args: Record<string, unknown>, viewer: Viewer) => Request,
): { bound: BoundRequest; request: Request } | null {
  const viewer = context.viewer;
  const given = viewer && argumentsOf(variables);
  const args = given && !holdsIllFormedText(given) ? given : null;
  const request = viewer && args && unlessRefused(() => build(args, viewer));
  const bound = viewer && request && plan.bind(viewer, variables, context);
  return request && bound ? { bound, request } : null;
}

/** The rows of a root field's records (`type`, of `model`), and the writer of `selections` from each. */
export function rootRows(
  plan: PlanContext,
  type: GraphQLOutputType,
  model: string,
  selections: SelectionSetNode | undefined,
): { scope: Scope; write: Writer } {
  const scope = plan.rootScope(type, model);
  const write = plan.objectOf(getNamedType(type), selections, { kind: "row", scope, table: scope.table });
  return { scope, write };
}

/** The statement of one record of `scope`, for a request's condition. */
export function recordStatement(scope: Scope): (condition: string) => string {
  // A selection of `__typename` alone reads no column, but the record's row still says whether it exists.
  if (scope.size === 0) scope.column("NULL");
  const select = `SELECT ${scope.selectList()} FROM ${scope.from()}`;
  return (condition) => `${select} WHERE ${condition} LIMIT 1`;
}

/** The planned read of a root field answering one record. */
export function planRecordRead(
  plan: PlanContext,
  read: RecordRead,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): PlannedRead {
  const { scope, write } = rootRows(plan, field.type, read.model, node.selectionSet);
  const statement = recordStatement(scope);
  return {
    recordTypes: plan.recordTypes(),
    prepare: (variables, context) => {
      const prepared = requestOf(plan, context, variables, argumentsOf, (args, viewer) =>
        read.where(read.id(args), viewer),
      );
      if (!prepared) return null;
      const { bound, request: where } = prepared;
      return async () => {
        const sql = plan.requestSql();
        const text = statement(conditionSql(where, scope.table, sql));
        const [row] = await query(text, [...bound.parameters, ...sql.values], context);
        return { kind: "record", json: row ? write(row, bound.values) : null };
      };
    },
  };
}

/** The planned read of a root field answering a page of a list (a connection). */
export function planRootList(
  plan: PlanContext,
  read: RootListRead,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  argumentsOf: ArgumentsOf,
  query: RunStatement,
): PlannedRead {
  const connection = getNamedType(field.type);
  if (!isObjectType(connection)) throw new PlanError(`${connection.name} is not a connection`);
  const nodeSelection = nodeSelectionOf(connection, node);
  const counted = fieldsOf(node.selectionSet).some((selected) => selected.name.value === "totalCount");
  const [firstPlace, ...morePlaces] = nodeSelection.places;
  const { scope, write } = rootRows(plan, nodeSelection.type, read.model, firstPlace);
  const writes = [
    write,
    ...morePlaces.map((selections) =>
      plan.objectOf(getNamedType(nodeSelection.type), selections, { kind: "row", scope, table: scope.table }),
    ),
  ];
  const selectList = scope.selectList();
  const from = scope.from();
  const { table } = scope;
  /** `count(*)` of the rows `where` matches, as text, from a table of its own. */
  const countOf = (where: object, sql: SqlWriter) => {
    const counted: TableRef = { model: table.model, alias: sql.alias() };
    return `SELECT count(*)::text AS "0" FROM ${quoted(table.model.table)} ${quoted(counted.alias)} WHERE ${conditionSql(where, counted, sql)}`;
  };
  // The rows' owner is read by the statement too: its table is one the answers depend on.
  const ownerModel = read.owner && plan.sql.model(read.owner.model);
  /** `SELECT 1` of the owner row `where` matches, from a table of its own. */
  const ownerOf = (where: object, sql: SqlWriter) => {
    if (!ownerModel) throw new Error(`${table.model.name}: a list without an owner`);
    const owner: TableRef = { model: ownerModel, alias: sql.alias() };
    return `SELECT 1 FROM ${quoted(ownerModel.table)} ${quoted(owner.alias)} WHERE ${conditionSql(where, owner, sql)}`;
  };
  return {
    recordTypes: plan.recordTypes(),
    prepare: (variables, context) => {
      const prepared = requestOf(plan, context, variables, argumentsOf, (args, viewer) => ({
        ...read.request(args, viewer),
        owner: read.owner?.where(args, viewer),
      }));
      if (!prepared) return null;
      const { bound, request } = prepared;
      return async () => {
        const { where, page, owner } = request;
        const window = pageWindow(page);
        const sql = plan.requestSql();
        const sortColumn = table.model.fields.get(page.order.key.field);
        const idColumn = table.model.fields.get("id");
        if (sortColumn?.kind !== "scalar" || idColumn?.kind !== "scalar")
          throw new PlanError(`${table.model.name} cannot be sorted by ${page.order.key.field}`);
        // The owner's existence is checked once for the statement (an uncorrelated subquery): a page with rows has one.
        const conditions =
          conditionSql(allOf([where, ...window.bounds]), table, sql) +
          (owner === undefined ? "" : ` AND EXISTS (${ownerOf(owner, sql)})`);
        const order = orderSql(window.orderBy, table).join(", ");
        // A cursor's sort value and id: columns the selection reads already, or one or two more after them.
        const extra: string[] = [];
        const readAs = (expression: string) => {
          const known = scope.keyOf(expression);
          if (known !== undefined) return known;
          const key = scope.size + extra.length;
          extra.push(`${expression} AS "${key}"`);
          return key;
        };
        const keys = {
          value: readAs(textOf(sortColumn, columnSql(table, sortColumn))),
          id: readAs(textOf(idColumn, columnSql(table, idColumn))),
          // The count beside the page, in the same statement: an uncorrelated subquery, counted once.
          count: counted ? readAs(`(${countOf(where, sql)})`) : undefined,
        };
        const text =
          // A selection of `__typename` alone reads no column of its own: only the cursor's.
          `SELECT ${[selectList, ...extra].filter((part) => part !== "").join(", ")} FROM ${from} WHERE ${conditions} ` +
          `ORDER BY ${order} LIMIT ${sql.bind(String(window.take))}`;
        const rows = await query(text, [...bound.parameters, ...sql.values], context);
        if (owner !== undefined && rows.length === 0) await refuseWithoutOwner(owner, context);
        const { nodes, more } = pageNodes(rows, page);
        const { values } = bound;
        const cursorOf = (row: Row) => encodeCursor(positionOf(row, keys, page), page.order);
        const pageInfo = pageInfoOf(nodes, more, page, nodeSelection.pageCursors ? cursorOf : null);
        const totalCount =
          keys.count === undefined ? null : await countIn(rows[0], keys.count, where, context);
        return {
          kind: "page",
          ...nodesOfPlaces(writes, nodes, values),
          cursors: nodeSelection.cursors ? nodes.map(cursorOf) : null,
          pageInfo,
          totalCount,
        };
      };
    },
  };

  /** Refuses a request whose owner row the viewer has none of: execution words the error (NOT_FOUND). */
  async function refuseWithoutOwner(owner: object, context: GraphQLContext): Promise<void> {
    const sql = plan.separateSql();
    const [found] = await query(`SELECT (EXISTS (${ownerOf(owner, sql)}))::text AS "0"`, sql.values, context);
    if (found?.[0] !== "true")
      throw new ArgumentsRefusedError(`${table.model.name}: the arguments name no owner row`);
  }

  /** The count a page's row read at `key`; a page without rows is counted by a statement of its own. */
  async function countIn(
    row: Row | undefined,
    key: number,
    where: object,
    context: GraphQLContext,
  ): Promise<number> {
    let text = row?.[key];
    if (row === undefined) {
      const sql = plan.separateSql();
      const [counted] = await query(countOf(where, sql), sql.values, context);
      text = counted?.[0];
    }
    if (typeof text !== "string") throw new Error(`${table.model.name}: no count read`);
    return Number(text);
  }
}
