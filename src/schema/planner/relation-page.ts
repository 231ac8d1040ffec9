// A connection below the root: a page of the rows related to its parent's
// row (an approval's orders, an order's events), newest first. It is planned
// in the parent's statement, for every parent row at once, as correlated
// subqueries of the parent's row: the page's rows, one more than asked to
// learn whether more follow, as a JSON array, and, when selected, the count
// of all of them. The page's size and cursor are each request's arguments,
// bound as parameters, so that the statement's text is one for every request.
import { randomUUID } from "node:crypto";
import {
  type FieldNode,
  type GraphQLField,
  type GraphQLOutputType,
  getNamedType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";
import type { RelationJoin } from "../../db/data-model.js";
import { conditionSql } from "../conditions.js";
import { encodeCursor } from "../cursor.js";
import { pageInfoOf, pageNodes, readPage } from "../page-window.js";
import type { RelationPageRead } from "../read-metadata.js";
import { holdsIllFormedText } from "../well-formed-text.js";
import { connectionWriter, nodeSelectionOf, nodesOfPlaces, positionOf } from "./connection-writer.js";
import {
  type FieldArguments,
  PLANNING_VIEWER,
  type RequestSlot,
  unlessRefused,
} from "./request-arguments.js";
import { fieldsOf } from "./selection-fields.js";
import { columnSql, quoted, type SqlWriter, type TableRef } from "./sql-writer.js";
import { joinConditions, Scope } from "./statement.js";
import {
  ArgumentsRefusedError,
  isRowList,
  PlanError,
  type Row,
  RowValueError,
  textOf,
  type Writer,
  wholeWriter,
} from "./writers.js";

/** Columns a page's row may read; its row is built by `json_build_array`, which PostgreSQL lets take at most 100. */
const MAX_ROW_COLUMNS = 50;

/** What planning a page asks of the plan it is part of (selection-walk.ts's `PlanContext`). */
export interface PagePlanning {
  readonly fieldArguments: FieldArguments;
  addSlot(slot: RequestSlot): number;
  objectOf(
    type: GraphQLOutputType,
    selections: SelectionSetNode | undefined,
    source: { kind: "row"; scope: Scope; table: TableRef },
  ): Writer;
}

/** The writer of a connection below the root, paging through `read`'s rows related to a row of `parent`. */
export function planRelationPage(
  plan: PagePlanning,
  read: RelationPageRead,
  parentType: string,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  scope: Scope,
  parent: TableRef,
): Writer {
  const { fieldArguments } = plan;
  const connection = getNamedType(field.type);
  if (!isObjectType(connection)) throw new PlanError(`${connection.name} is not a connection`);
  const { sql } = scope;
  const through = relationsOf(sql, parent, read.through);
  const target = through.at(-1)?.target;
  if (target === undefined) throw new PlanError("a page goes through no relation");
  const rowsOf = (): TableRef => ({ model: sql.model(target), alias: sql.alias() });
  /** The rows of the page's relation of the parent's row, as the viewer may see them. */
  const conditionsOf = (rows: TableRef) => [
    relatedSql(parent, through, rows, sql),
    ...(read.where ? [conditionSql(read.where(PLANNING_VIEWER), rows, sql)] : []),
  ];
  const selected = new Set(fieldsOf(node.selectionSet).map((selection) => selection.name.value));
  const writeConnection = connectionWriter(node, connection);
  const countKey = selected.has("totalCount")
    ? scope.column(
        (() => {
          const counted = rowsOf();
          return `(SELECT count(*) FROM ${quoted(counted.model.table)} ${quoted(counted.alias)} WHERE ${conditionsOf(counted).join(" AND ")})::text`;
        })(),
      )
    : undefined;
  const paged = selected.has("nodes") || selected.has("edges") || selected.has("pageInfo");
  const nodes = paged ? pageColumn(plan, scope, node, connection, rowsOf(), conditionsOf) : undefined;
  const slot = plan.addSlot((variables) => {
    const args = fieldArguments(parentType, field, node, variables);
    const read = args && !holdsIllFormedText(args) ? unlessRefused(() => readPage(args)) : null;
    const page = read?.after && !(read.after.value instanceof Date) ? null : read;
    const after = page?.after;
    if (!page)
      // The statement runs without the page's rows; a parent row that holds it leaves the request to execution.
      return {
        parameters: nodes
          ? [
              [nodes.tokens.take, "0"],
              [nodes.tokens.afterTime, null],
              [nodes.tokens.afterId, null],
            ]
          : [],
        page: null,
      };
    return {
      parameters: nodes
        ? [
            [nodes.tokens.take, String(page.size + 1)],
            [nodes.tokens.afterTime, after?.value instanceof Date ? after.value.toISOString() : null],
            [nodes.tokens.afterId, after?.id ?? null],
          ]
        : [],
      page,
    };
  });
  return wholeWriter((row, request) => {
    const page = request.pages[slot];
    if (page === undefined) throw new Error(`${connection.name}: no page bound for the request`);
    if (page === null) throw new ArgumentsRefusedError(`${connection.name}: arguments execution refuses`);
    const rows = nodes ? rowsIn(row[nodes.key]) : [];
    const { nodes: shown, more } = pageNodes(rows, page);
    // Without the page's rows (only `totalCount` selected), the page info is not written.
    const cursor = nodes?.cursor;
    const cursorOf = (item: Row) => (cursor ? encodeCursor(positionOf(item, cursor, page), page.order) : "");
    const pageInfo = pageInfoOf(shown, more, page, nodes?.pageCursors ? cursorOf : null);
    const counted = countKey === undefined ? null : row[countKey];
    if (countKey !== undefined && typeof counted !== "string")
      throw new RowValueError(`${connection.name}: no count read`);
    return writeConnection({
      ...(nodes ? nodesOfPlaces(nodes.writes, shown, request) : { nodes: [], spelledAgain: [] }),
      cursors: nodes?.cursors ? shown.map(cursorOf) : null,
      pageInfo,
      totalCount: typeof counted === "string" ? Number(counted) : null,
    });
  });
}

/** The page's rows as a JSON array at a column of the parent's row, with the parameters a request binds. */
function pageColumn(
  plan: PagePlanning,
  scope: Scope,
  node: FieldNode,
  connection: Parameters<typeof nodeSelectionOf>[0],
  table: TableRef,
  conditionsOf: (rows: TableRef) => string[],
) {
  const { sql } = scope;
  const selection = nodeSelectionOf(connection, node);
  const list = new Scope(sql, table);
  // Each place selecting the nodes writes the same rows, whose columns are read once.
  const writes = selection.places.map((selections) =>
    plan.objectOf(getNamedType(selection.type), selections, { kind: "row", scope: list, table }),
  );
  const createdAt = table.model.fields.get("createdAt");
  const id = table.model.fields.get("id");
  if (createdAt?.kind !== "scalar" || id?.kind !== "scalar" || createdAt.type !== "DateTime")
    throw new PlanError(`${table.model.name} cannot be paged newest first`);
  const createdAtSql = columnSql(table, createdAt);
  const idSql = columnSql(table, id);
  const cursor = {
    value: list.column(textOf(createdAt, createdAtSql)),
    id: list.column(textOf(id, idSql)),
  };
  if (list.size > MAX_ROW_COLUMNS)
    throw new PlanError(`a page's row reads more than ${MAX_ROW_COLUMNS} columns`);
  // Tokens in the plan's parameters, each request's values in their place (`PlanContext.bind`).
  const tokens = { take: randomUUID(), afterTime: randomUUID(), afterId: randomUUID() };
  const take = sql.bind(tokens.take);
  const afterTime = sql.bind(tokens.afterTime);
  const afterId = sql.bind(tokens.afterId);
  // Rows strictly after the cursor, newest first; without a cursor, every row. The comparisons come
  // first: PostgreSQL takes a parameter's type from where it first meets it, which `IS NULL` does not say.
  const after = `(${createdAtSql} < ${afterTime} OR (${createdAtSql} = ${afterTime} AND ${idSql} < ${afterId}) OR ${afterTime} IS NULL)`;
  const page = quoted(sql.alias());
  const rows =
    `SELECT ${list.jsonArray()} AS "r", ${createdAtSql} AS "c", ${idSql} AS "i" FROM ${list.from()} ` +
    `WHERE ${[...conditionsOf(table), after].join(" AND ")} ORDER BY ${createdAtSql} DESC, ${idSql} DESC LIMIT ${take}`;
  const key = scope.column(
    `(SELECT json_agg(${page}."r" ORDER BY ${page}."c" DESC, ${page}."i" DESC) FROM (${rows}) ${page})::text`,
  );
  return { key, writes, cursor, tokens, cursors: selection.cursors, pageCursors: selection.pageCursors };
}

/** The list relations `names` lead through from a row of `parent`, each checked to be one. */
function relationsOf(sql: SqlWriter, parent: TableRef, names: readonly string[]): RelationJoin[] {
  let model = parent.model;
  return names.map((name) => {
    const relation = model.fields.get(name);
    if (relation?.kind !== "relation" || !relation.isList)
      throw new PlanError(`${model.name}.${name} is not a list relation`);
    model = sql.model(relation.target);
    return relation;
  });
}

/** The condition relating `rows` to the parent's row through `relations`: a join's columns, or rows between. */
function relatedSql(
  parent: TableRef,
  relations: readonly RelationJoin[],
  rows: TableRef,
  sql: SqlWriter,
): string {
  const [relation, ...rest] = relations;
  if (!relation) throw new PlanError("a page goes through no relation");
  if (rest.length === 0) return joinConditions(parent, relation, rows).join(" AND ");
  const between: TableRef = { model: sql.model(relation.target), alias: sql.alias() };
  return `EXISTS (SELECT 1 FROM ${quoted(between.model.table)} ${quoted(between.alias)} WHERE ${[
    ...joinConditions(parent, relation, between),
    relatedSql(between, rest, rows, sql),
  ].join(" AND ")})`;
}

/** The rows of a page read at a column (null: none). */
function rowsIn(text: unknown): Row[] {
  if (typeof text !== "string") return [];
  const rows: unknown = JSON.parse(text);
  if (!isRowList(rows)) throw new RowValueError("a page's column is no list of rows");
  return rows;
}
