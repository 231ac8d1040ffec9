// How lists are sorted: the sort keys a list offers and where a row stands in one.
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
export type SortValue = Date | string | null;

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

/** A text sort key on a required column, ascending. */
export function byName(description: string, field = "name"): SortKey {
  return { field, kind: "text", nullable: false, direction: "asc", description };
}

/**
 * A text sort key on an optional column, ascending; rows without a value come
 * last (see `SortKey`). `sorted` names what is sorted by, `items` the rows listed.
 */
export function byOptionalText(field: string, sorted: string, items: string): SortKey {
  const description = `${sorted}, ascending; ${items} without one come last.`;
  return { field, kind: "text", nullable: true, direction: "asc", description };
}
