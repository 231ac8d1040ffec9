// The page window: reading paging arguments, the rows between two cursors
// and what a page tells about the rows beyond it.
import type { FieldProblem } from "../domain/errors.js";
import { validationFailed } from "../domain/errors.js";
import { allOf, anyOf, everyRow, isBeyond, isPresent, isValue, ordered } from "./conditions.js";
import { decodeCursor, decodeSortCursor } from "./cursor.js";
import {
  CREATED_AT,
  type ListOrder,
  NEWEST_FIRST_ORDER,
  type PagePosition,
  type SortKey,
  type SortPosition,
} from "./sort-keys.js";

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

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
 * The rows strictly after `position` when the list runs in `direction`;
 * nulls are the largest values (see `SortKey`).
 */
function afterSortPosition(key: SortKey, direction: Direction, position: SortPosition | null): object {
  if (!position) return everyRow();
  const beyond = direction === "asc" ? "gt" : "lt";
  const beyondId = isBeyond("id", beyond, position.id);
  if (key.kind === "id") return beyondId;
  const { field } = key;
  if (position.value === null) {
    const sameValue = allOf([isValue(field, null), beyondId]);
    return direction === "desc" ? anyOf([sameValue, isPresent(field)]) : sameValue;
  }
  return anyOf([
    isBeyond(field, beyond, position.value),
    allOf([isValue(field, position.value), beyondId]),
    ...(key.nullable && direction === "asc" ? [isValue(field, null)] : []),
  ]);
}

/** The rows strictly after a newest-first position. */
function afterPosition(position: PagePosition | null) {
  return afterSortPosition(CREATED_AT, "desc", position && { value: position.createdAt, id: position.id });
}

function orderByFor(key: SortKey, direction: Direction): object[] {
  return key.kind === "id" ? ordered(["id", direction]) : ordered([key.field, direction], ["id", direction]);
}

/** The conditions, order and `take` of one page: rows between the cursors, one more than the page. */
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
  /** Null when no one reads the cursors: they are left null rather than written. */
  cursorOf: ((node: Row) => string) | null,
): PageInfoShape {
  const first = nodes[0];
  const last = nodes.at(-1);
  return {
    hasNextPage: page.backward ? page.before !== null : more || page.before !== null,
    hasPreviousPage: page.backward ? more || page.after !== null : page.after !== null,
    startCursor: first === undefined || !cursorOf ? null : cursorOf(first),
    endCursor: last === undefined || !cursorOf ? null : cursorOf(last),
  };
}

/**
 * The Prisma relation query for one page of a relation loaded inside its
 * parent's SQL statement (newest first). Bad arguments are ignored here and
 * reported by the field's resolver through `readPage`, so that the error lands
 * on the connection field, not on the parent that planned the statement.
 */
export function relationPageQuery(args: PageArgs, where: object = everyRow()) {
  const first = Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const after = typeof args.after === "string" ? decodeCursor(args.after) : null;
  return {
    where: allOf([where, afterPosition(after)]),
    orderBy: ordered(["createdAt", "desc"], ["id", "desc"]),
    take: first + 1,
  };
}

/** `readPageArgs` for a connection field alone: throws VALIDATION_FAILED naming `first` or `after`. */
export function readPage(args: PageArgs): PageRequest {
  const problems: FieldProblem[] = [];
  const page = readPageArgs(args, problems);
  throwIfProblems(problems);
  return page;
}

/** Sort order of `NEWEST_FIRST`, for rows gathered from several relations. */
export function compareNewestFirst(a: PagePosition, b: PagePosition): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
