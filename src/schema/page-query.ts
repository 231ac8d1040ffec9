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

/**
 * A relation's plan as every column of its rows (`true`, or a query without
 * `select`) and the relations it loads as `include`: what a plan with a
 * `select` becomes when merged with one that reads every column.
 */
function everyColumn(plan: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainRecord(plan.select)) return plan;
  const { select, ...rest } = plan;
  const relations = Object.entries(select).filter(([, value]) => isPlainRecord(value));
  return relations.length > 0 ? { ...rest, include: Object.fromEntries(relations) } : rest;
}

/** Two selections (`select` or `include` maps), merged: each field once, its plans merged. */
function mergeFields(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = mergePlans(a[key], value);
  return merged;
}

/**
 * Two plans of one relation query, merged: every field either asked for.
 * `true` reads every column of a relation and none of its relations, so
 * beside a plan that selects columns and relations it keeps that plan's
 * relations, as `include`.
 */
function mergePlans(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (!isPlainRecord(a) && !isPlainRecord(b)) return a === true || b === true ? true : a;
  const left = isPlainRecord(a) ? a : {};
  const right = isPlainRecord(b) ? b : {};
  const selecting = isPlainRecord(left.select) && isPlainRecord(right.select);
  const [wideLeft, wideRight] = selecting ? [left, right] : [everyColumn(left), everyColumn(right)];
  const merged: Record<string, unknown> = { ...wideLeft };
  for (const [key, value] of Object.entries(wideRight)) {
    const own = wideLeft[key];
    merged[key] =
      (key === "select" || key === "include") && isPlainRecord(own) && isPlainRecord(value)
        ? mergeFields(own, value)
        : mergePlans(own, value);
  }
  // `true` beside a plan of every column with no relations and no arguments: still `true`.
  return Object.keys(merged).length === 0 && (a === true || b === true) ? true : merged;
}

/**
 * A relation page's query planned for both places a client can select its
 * rows, `edges.node` and `nodes` (plugin-prisma plans one path at a time),
 * merged as plugin-prisma merges a root page's (`queryFromInfo` with both paths).
 */
export function nodeSelection(nestedSelection: NestedSelection, query: object): object {
  return mergePlans(nestedSelection(query, ["edges", "node"]), nestedSelection(query, ["nodes"])) as object;
}
