import type { ArgBuilder, ObjectRef } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import type { FieldProblem } from "../domain/errors.js";
import { validationFailed } from "../domain/errors.js";
import { isUuid } from "../domain/uuid.js";
import { builder, type SchemaTypes } from "./builder.js";

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

/** Position after a row in newest-first order: its creation time and id (the tie-breaker). */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/**
 * One way a list can be sorted: a column, the direction it runs in when
 * `reverse` is false, and the kind of value a cursor carries for it. The row
 * id always breaks ties, in the same direction. Nulls sort after every value
 * in ascending order and before every value in descending order, as
 * PostgreSQL sorts them by default, so that plain b-tree indexes serve both
 * directions.
 */
export interface SortKey {
  /** The Prisma field sorted on. */
  field: string;
  kind: "time" | "text" | "decimal" | "id";
  nullable: boolean;
  direction: "asc" | "desc";
  description: string;
}

/** The order of one page: a list's sort key, named as its GraphQL enum value, and `reverse`. */
export interface ListOrder {
  name: string;
  key: SortKey;
  reverse: boolean;
}

/** The value of a row's sort column as a cursor holds it. */
type SortValue = Date | string | null;

/** Where a row stands in a sort: its sort value and id. */
export interface SortPosition {
  value: SortValue;
  id: string;
}

/** The default of every list: newest first by creation time, then id. */
export const CREATED_AT: SortKey = {
  field: "createdAt",
  kind: "time",
  nullable: false,
  direction: "desc",
  description: "Creation time, newest first.",
};
export const UPDATED_AT: SortKey = {
  field: "updatedAt",
  kind: "time",
  nullable: false,
  direction: "desc",
  description: "Time of the last change, most recently changed first.",
};
export const BY_ID: SortKey = {
  field: "id",
  kind: "id",
  nullable: false,
  direction: "asc",
  description: "Id, ascending: an order that never changes, whatever is edited.",
};

export const NEWEST_FIRST_ORDER: ListOrder = { name: "CREATED_AT", key: CREATED_AT, reverse: false };

/** How `encodeCursor` writes a stored time: four-digit years from 0001 (PostgreSQL has no year 0). */
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** `numeric(20,6)` as `Decimal#toFixed()` writes it. */
const CURSOR_DECIMAL = /^-?\d{1,20}(\.\d{1,6})?$/;
/** Longer than any stored name or reference a cursor carries; bounds what a client can send. */
const MAX_CURSOR_LENGTH = 4096;

/** Cursors carry ids as stored, in lower case; any other spelling was not issued by this API. */
const isIssuedId = (id: string) => isUuid(id) && id === id.toLowerCase();

/** A row's value in the sort column, as its cursor writes it. */
function sortValueOf(row: object, key: SortKey): string | null {
  const value = (row as Record<string, unknown>)[key.field];
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  // Prisma's Decimal: `toFixed()` writes every digit, never exponent notation.
  return (value as { toFixed(): string }).toFixed();
}

/**
 * The cursor of `row` in `order`. Creation-time cursors keep the form issued
 * before lists could be sorted (`time|id`), so that cursors clients already
 * hold, and REST `Link` URLs, stay valid and unchanged; every other sort key
 * writes its name, the row's value and id.
 */
export function encodeCursor(row: PagePosition | object, order: ListOrder = NEWEST_FIRST_ORDER): string {
  const { id } = row as { id: string };
  const value = sortValueOf(row, order.key);
  const text = order.name === "CREATED_AT" ? `${value}|${id}` : JSON.stringify([order.name, value, id]);
  return Buffer.from(text, "utf8").toString("base64url");
}

type DecodedCursor = { name: string; value: unknown; id: unknown };

function parseCursor(cursor: string): DecodedCursor | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== "string") return null;
      return { name: parsed[0], value: parsed[1], id: parsed[2] };
    } catch {
      return null;
    }
  }
  const [time, id, ...rest] = text.split("|");
  if (rest.length > 0 || time === undefined || id === undefined) return null;
  return { name: "CREATED_AT", value: time, id };
}

function parseSortValue(value: unknown, key: SortKey): SortValue | undefined {
  if (value === null) return key.nullable ? null : undefined;
  if (typeof value !== "string") return undefined;
  switch (key.kind) {
    case "time": {
      if (!CURSOR_TIME.test(value)) return undefined;
      const time = new Date(value);
      return Number.isNaN(time.getTime()) || time.toISOString() !== value ? undefined : time;
    }
    case "decimal":
      return CURSOR_DECIMAL.test(value) ? value : undefined;
    case "id":
      return isIssuedId(value) ? value : undefined;
    case "text":
      return value;
  }
}

/** A creation-time cursor, for the lists that are always newest first. */
export function decodeCursor(cursor: string): PagePosition | null {
  const decoded = decodeSortCursor(cursor, NEWEST_FIRST_ORDER);
  if (decoded.kind !== "position" || !(decoded.position.value instanceof Date)) return null;
  return { createdAt: decoded.position.value, id: decoded.position.id };
}

type DecodedSortCursor =
  | { kind: "position"; position: SortPosition }
  | { kind: "other-sort"; name: string }
  | { kind: "not-issued" };

/** Reads a cursor for `order`; a cursor of another sort key is told apart from one never issued. */
export function decodeSortCursor(cursor: string, order: ListOrder): DecodedSortCursor {
  const parsed = parseCursor(cursor);
  if (!parsed) return { kind: "not-issued" };
  if (typeof parsed.id !== "string" || !isIssuedId(parsed.id)) return { kind: "not-issued" };
  if (parsed.name !== order.name) {
    return /^[A-Z][A-Z_]{0,39}$/.test(parsed.name)
      ? { kind: "other-sort", name: parsed.name }
      : { kind: "not-issued" };
  }
  const value = parseSortValue(parsed.value, order.key);
  return value === undefined
    ? { kind: "not-issued" }
    : { kind: "position", position: { value, id: parsed.id } };
}

/** One page of a list: its size, direction, bounds and order. */
export interface PageRequest {
  size: number;
  /** `last`: the page ends at `before` (or the end of the list) instead of starting at `after`. */
  backward: boolean;
  after: SortPosition | null;
  before: SortPosition | null;
  order: ListOrder;
}

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

function readCursorArg(
  name: "after" | "before",
  cursor: string | null | undefined,
  order: ListOrder,
  problems: FieldProblem[],
): SortPosition | null {
  if (cursor === null || cursor === undefined) return null;
  const decoded = decodeSortCursor(cursor, order);
  if (decoded.kind === "position") return decoded.position;
  problems.push({
    path: [name],
    code: "invalid",
    message:
      decoded.kind === "other-sort"
        ? `is a cursor of sortKey ${decoded.name}, not of ${order.name}; page with the sortKey it came from, or start again without a cursor`
        : "is not a cursor this API issued",
  });
  return null;
}

/**
 * Reads `first`/`after`/`last`/`before` for `order`, reporting bad values as
 * field problems of those arguments. `first` and `last` together are refused:
 * a page is read from one end.
 */
export function readPageArgs(
  args: PageArgs,
  problems: FieldProblem[],
  order: ListOrder = NEWEST_FIRST_ORDER,
): PageRequest {
  const backward = args.last !== null && args.last !== undefined;
  if (backward && args.first !== null && args.first !== undefined) {
    problems.push({
      path: ["last"],
      code: "invalid",
      message: "cannot be combined with first; give one of them",
    });
  }
  const size = (backward ? args.last : args.first) ?? DEFAULT_PAGE_SIZE;
  if (size < 1 || size > MAX_PAGE_SIZE) {
    problems.push({
      path: [backward ? "last" : "first"],
      code: "out_of_range",
      message: `must be 1 to ${MAX_PAGE_SIZE}`,
    });
  }
  const after = readCursorArg("after", args.after, order, problems);
  const before = readCursorArg("before", args.before, order, problems);
  return { size, backward, after, before, order };
}

export function throwIfProblems(problems: FieldProblem[]): void {
  if (problems.length > 0) throw validationFailed(problems);
}

type Direction = "asc" | "desc";
const flip = (direction: Direction): Direction => (direction === "asc" ? "desc" : "asc");

/** The direction rows are read from the database in for a page. */
function readDirection(page: Pick<PageRequest, "order" | "backward">): Direction {
  const { key, reverse } = page.order;
  const shown = reverse ? flip(key.direction) : key.direction;
  return page.backward ? flip(shown) : shown;
}

/**
 * Prisma `where` for rows strictly after `position` when the list runs in
 * `direction`; nulls are the largest values (see `SortKey`).
 */
export function afterSortPosition(key: SortKey, direction: Direction, position: SortPosition | null): object {
  if (!position) return {};
  const beyond = direction === "asc" ? "gt" : "lt";
  if (key.kind === "id") return { id: { [beyond]: position.id } };
  const { field } = key;
  if (position.value === null) {
    const sameValue = { [field]: null, id: { [beyond]: position.id } };
    return direction === "desc" ? { OR: [sameValue, { [field]: { not: null } }] } : sameValue;
  }
  return {
    OR: [
      { [field]: { [beyond]: position.value } },
      { [field]: position.value, id: { [beyond]: position.id } },
      ...(key.nullable && direction === "asc" ? [{ [field]: null }] : []),
    ],
  };
}

/** Prisma `where` for rows strictly after a newest-first position. */
export function afterPosition(position: PagePosition | null) {
  return afterSortPosition(CREATED_AT, "desc", position && { value: position.createdAt, id: position.id });
}

function orderByFor(key: SortKey, direction: Direction): object[] {
  return key.kind === "id" ? [{ id: direction }] : [{ [key.field]: direction }, { id: direction }];
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** Prisma `where`, `orderBy` and `take` for one page: rows between the cursors, one more than the page. */
export function pageWindow(page: PageRequest) {
  const direction = readDirection(page);
  const { key } = page.order;
  // Rows before `before` in the shown order are the rows after it read the other way.
  const [start, end] = page.backward ? [page.before, page.after] : [page.after, page.before];
  return {
    bounds: [afterSortPosition(key, direction, start), afterSortPosition(key, flip(direction), end)],
    orderBy: orderByFor(key, direction),
    take: page.size + 1,
  };
}

export interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: PageInfoShape;
  /** Counts every item the filters match, ignoring paging; only called when a client selects `totalCount`. */
  totalCount: () => Promise<number>;
}

/** Runs `count` at most once, and only if asked: `totalCount` may be selected twice, or not at all. */
export function lazyCount(count: () => Promise<number>): () => Promise<number> {
  let result: Promise<number> | undefined;
  return () => {
    result ??= count();
    return result;
  };
}

/** An edge whose cursor is encoded only if a client selects it: REST pages read `endCursor` alone. */
class Edge<Node extends object> {
  constructor(
    readonly node: Node,
    private readonly order: ListOrder,
  ) {}

  get cursor(): string {
    return encodeCursor(this.node, this.order);
  }
}

/**
 * `rows` were fetched in the page's read direction with one more than
 * `page.size` to learn whether more remain beyond the page's far end. The near
 * end is known from the cursor: a page asked for after (or before) a cursor
 * has items on that side.
 */
export function toConnection<Node extends object>(
  rows: Node[],
  page: PageRequest,
  totalCount: () => Promise<number>,
): Connection<Node> {
  const { nodes, more } = pageNodes(rows, page);
  return {
    edges: nodes.map((node) => new Edge(node, page.order)),
    pageInfo: pageInfoOf(nodes, more, page, (node) => encodeCursor(node, page.order)),
    totalCount: lazyCount(totalCount),
  };
}

/** A page's nodes in the order shown, from `rows` read as `pageWindow` reads them, and whether more lie beyond its far end. */
export function pageNodes<Row>(rows: Row[], page: PageRequest): { nodes: Row[]; more: boolean } {
  const read = rows.slice(0, page.size);
  return { nodes: page.backward ? read.reverse() : read, more: rows.length > page.size };
}

/** The page info of `nodes` (see `pageNodes`); `cursorOf` is called for the first and last node only. */
export function pageInfoOf<Row>(
  nodes: Row[],
  more: boolean,
  page: PageRequest,
  cursorOf: (node: Row) => string,
): PageInfoShape {
  const first = nodes[0];
  const last = nodes.at(-1);
  return {
    hasNextPage: page.backward ? page.before !== null : more || page.before !== null,
    hasPreviousPage: page.backward ? more || page.after !== null : page.after !== null,
    startCursor: first === undefined ? null : cursorOf(first),
    endCursor: last === undefined ? null : cursorOf(last),
  };
}

/** Both places a client can select a connection's rows; Prisma plans the union. */
const NODE_PATHS = [["edges", "node"], ["nodes"]];

/**
 * The Prisma query for one page of a root list field: the client's selection
 * of `edges.node` and `nodes`, the rows between the cursors in the page's
 * order, and one row more than the page to learn whether another follows.
 */
export function rootPageQuery(context: object, info: GraphQLResolveInfo, where: object, page: PageRequest) {
  const window = pageWindow(page);
  const query = queryFromInfo({ context, info, paths: NODE_PATHS });
  return {
    ...withPositionFields(query, page.order.key),
    where: { AND: [where, ...window.bounds] },
    orderBy: window.orderBy,
    take: window.take,
  };
}

/**
 * The Prisma relation query for one page of a relation loaded inside its
 * parent's SQL statement (newest first). Bad arguments are ignored here and
 * reported by the field's resolver through `readPage`, so that the error lands
 * on the connection field, not on the parent that planned the statement.
 */
export function relationPageQuery(args: PageArgs, where: object = {}) {
  const first = Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const after = typeof args.after === "string" ? decodeCursor(args.after) : null;
  return { where: { AND: [where, afterPosition(after)] }, orderBy: NEWEST_FIRST, take: first + 1 };
}

/** `readPageArgs` for a connection field alone: throws VALIDATION_FAILED naming `first` or `after`. */
export function readPage(args: PageArgs): PageRequest {
  const problems: FieldProblem[] = [];
  const page = readPageArgs(args, problems);
  throwIfProblems(problems);
  return page;
}

/**
 * A planned query with the columns paging needs even when the client selected
 * no node fields (only `totalCount`, say): Prisma refuses an empty `select`,
 * and cursors are made of the sort column and the id.
 */
export function withPositionFields<Query>(query: Query, key: SortKey = CREATED_AT): Query {
  const { select } = query as { select?: object };
  return select ? { ...query, select: { ...select, id: true, createdAt: true, [key.field]: true } } : query;
}

/** Sort order of `NEWEST_FIRST`, for rows gathered from several relations. */
export function compareNewestFirst(a: PagePosition, b: PagePosition): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export const PageInfoRef = builder.objectRef<PageInfoShape>("PageInfo").implement({
  description: "Where a page ends and whether more follow (Relay cursor connections).",
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage", {
      description:
        "True when items follow this page: more remain after it, or it was asked for with `before`.",
    }),
    hasPreviousPage: t.exposeBoolean("hasPreviousPage", {
      description:
        "True when items come before this page: it was asked for with `after`, or with `last` and more remain before it.",
    }),
    startCursor: t.exposeString("startCursor", {
      nullable: true,
      description:
        "Cursor of the first item of this page; pass as `before` for the page before. Null on an empty page.",
    }),
    endCursor: t.exposeString("endCursor", {
      nullable: true,
      description:
        "Cursor of the last item of this page; pass as `after` for the next page. Null on an empty page.",
    }),
  }),
});

/** `first`/`after` arguments of every connection field. */
export function pageArgs(arg: ArgBuilder<SchemaTypes>) {
  return {
    first: arg.int({ description: `Page size, 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when omitted.` }),
    after: arg.string({ description: "`endCursor` of the previous page; omit for the first page." }),
  };
}

/** `first`/`after` and `last`/`before`: the arguments of root lists, which page both ways. */
export function bothWaysPageArgs(arg: ArgBuilder<SchemaTypes>) {
  return {
    first: arg.int({
      description: `Page size from the start (or from \`after\`), 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when neither \`first\` nor \`last\` is given.`,
    }),
    after: arg.string({ description: "Only items after this cursor (`endCursor` of the previous page)." }),
    last: arg.int({
      description: `Page size from the end (or from \`before\`), 1 to ${MAX_PAGE_SIZE}; not with \`first\`.`,
    }),
    before: arg.string({ description: "Only items before this cursor (`startCursor` of the next page)." }),
  };
}

/** `<Name>Connection` and `<Name>Edge` types for a node type, Relay style. */
export function connectionType<NodeShape>(
  name: string,
  node: ObjectRef<SchemaTypes, NodeShape>,
  description: string,
) {
  const edge = builder.objectRef<{ cursor: string; node: NodeShape }>(`${name}Edge`).implement({
    description: `One ${name} in a page.`,
    fields: (t) => ({
      cursor: t.exposeString("cursor", {
        description: "Pass as `after` or `before` to page from this item.",
      }),
      // The generic shape defeats Pothos' resolver typing; the edge holds exactly a NodeShape.
      node: t.field({ type: node, description: `The ${name}.`, resolve: (parent) => parent.node as never }),
    }),
  });
  return builder.objectRef<Connection<NodeShape>>(`${name}Connection`).implement({
    description,
    fields: (t) => ({
      edges: t.field({
        type: [edge],
        description: "The items of this page, in the list's order, each with its cursor.",
        resolve: (c) => c.edges,
      }),
      nodes: t.field({
        type: [node],
        description: "The items of this page, as in `edges`, without cursors.",
        // The generic shape defeats Pothos' resolver typing, as for `Edge.node`.
        resolve: (c) => c.edges.map((edge) => edge.node) as never,
      }),
      pageInfo: t.field({ type: PageInfoRef, description: "Paging state.", resolve: (c) => c.pageInfo }),
      totalCount: t.int({
        description: "How many items match, over all pages. Counted only when selected.",
        resolve: (c) => c.totalCount(),
      }),
    }),
  });
}

/** A text sort key on a required column, ascending. */
export function byName(description: string, field = "name"): SortKey {
  return { field, kind: "text", nullable: false, direction: "asc", description };
}

type NestedSelection = (selection: object, path: string[]) => object;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Two plans of one relation query, merged: every field either asked for. */
function mergePlans(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (!isPlainRecord(a) || !isPlainRecord(b)) return a === true || b === true ? true : a;
  const merged: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = mergePlans(a[key], value);
  return merged;
}

/**
 * A relation page's query planned for both places a client can select its
 * rows, `edges.node` and `nodes` (plugin-prisma plans one path at a time). A
 * plan without `select` reads every column; the other plan's relations then
 * ride along as `include`.
 */
export function nodeSelection(nestedSelection: NestedSelection, query: object): object {
  const viaEdges = nestedSelection(query, ["edges", "node"]) as Record<string, unknown>;
  const viaNodes = nestedSelection(query, ["nodes"]) as Record<string, unknown>;
  const selecting = [viaEdges, viaNodes].filter((plan) => isPlainRecord(plan.select));
  if (selecting.length !== 1) return mergePlans(viaEdges, viaNodes) as object;
  const [narrow] = selecting as [Record<string, unknown>];
  const wide = narrow === viaEdges ? viaNodes : viaEdges;
  const { select, ...rest } = narrow;
  const relations = Object.entries(select as Record<string, unknown>).filter(([, value]) =>
    isPlainRecord(value),
  );
  const include = mergePlans(wide.include, relations.length ? Object.fromEntries(relations) : undefined);
  return { ...(mergePlans(rest, wide) as object), ...(include ? { include } : {}) };
}
