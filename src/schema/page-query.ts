// The Prisma queries of a page: the client's selection of the connection's
// rows, planned for both places it can be selected, with the columns cursors need.
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import { allOf } from "./conditions.js";
import { type PageRequest, pageWindow } from "./page-window.js";
import { CREATED_AT, type SortKey } from "./sort-keys.js";

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
    where: allOf([where, ...window.bounds]),
    orderBy: window.orderBy,
    take: window.take,
  };
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
