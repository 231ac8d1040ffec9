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

/** How `encodeCursor` writes a stored creation time: four-digit years from 0001 (PostgreSQL has no year 0). */
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Cursors carry ids as stored, in lower case; any other spelling was not issued by this API. */
const isIssuedId = (id: string) => isUuid(id) && id === id.toLowerCase();

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): PagePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [time, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !time || !id || !isIssuedId(id) || !CURSOR_TIME.test(time)) return null;
  const createdAt = new Date(time);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time) return null;
  return { createdAt, id };
}

export interface PageRequest {
  first: number;
  after: PagePosition | null;
}

/** Reads `first`/`after`, reporting bad values as field problems of those arguments. */
export function readPageArgs(
  args: { first?: number | null; after?: string | null },
  problems: FieldProblem[],
): PageRequest {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (first < 1 || first > MAX_PAGE_SIZE) {
    problems.push({ path: ["first"], code: "out_of_range", message: `must be 1 to ${MAX_PAGE_SIZE}` });
  }
  let after: PagePosition | null = null;
  if (args.after !== null && args.after !== undefined) {
    after = decodeCursor(args.after);
    if (!after)
      problems.push({ path: ["after"], code: "invalid", message: "is not a cursor this API issued" });
  }
  return { first, after };
}

export function throwIfProblems(problems: FieldProblem[]): void {
  if (problems.length > 0) throw validationFailed(problems);
}

/** Prisma `where` for rows strictly after `position` in (createdAt desc, id desc) order. */
export function afterPosition(position: PagePosition | null) {
  if (!position) return {};
  return {
    OR: [
      { createdAt: { lt: position.createdAt } },
      { createdAt: position.createdAt, id: { lt: position.id } },
    ],
  };
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

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
class Edge<Node extends PagePosition> {
  constructor(readonly node: Node) {}

  get cursor(): string {
    return encodeCursor(this.node);
  }
}

/** `rows` were fetched with one more than `page.first` to learn whether more remain. */
export function toConnection<Node extends PagePosition>(
  rows: Node[],
  page: PageRequest,
  totalCount: () => Promise<number>,
): Connection<Node> {
  const nodes = rows.slice(0, page.first);
  const first = nodes[0];
  const last = nodes.at(-1);
  return {
    edges: nodes.map((node) => new Edge(node)),
    pageInfo: {
      hasNextPage: rows.length > page.first,
      // Paging is forward only; anything before `after` was a previous page.
      hasPreviousPage: page.after !== null,
      startCursor: first ? encodeCursor(first) : null,
      endCursor: last ? encodeCursor(last) : null,
    },
    totalCount: lazyCount(totalCount),
  };
}

/**
 * The Prisma query for one page of a root list field: the client's selection
 * of `edges.node`, the rows after the cursor newest first, and one row more
 * than the page to learn whether another follows.
 */
export function rootPageQuery<Where extends object>(
  context: object,
  info: GraphQLResolveInfo,
  where: Where,
  page: PageRequest,
) {
  return {
    ...queryFromInfo({ context, info, path: ["edges", "node"] }),
    where: { ...where, AND: [afterPosition(page.after)] },
    orderBy: NEWEST_FIRST,
    take: page.first + 1,
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

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** `readPageArgs` for a connection field alone: throws VALIDATION_FAILED naming `first` or `after`. */
export function readPage(args: PageArgs): PageRequest {
  const problems: FieldProblem[] = [];
  const page = readPageArgs(args, problems);
  throwIfProblems(problems);
  return page;
}

/**
 * A planned relation query with the columns paging needs even when the client
 * selected no node fields (only `totalCount`, say): Prisma refuses an empty
 * `select`, and cursors are made of these two.
 */
export function withPositionFields<Query>(query: Query): Query {
  const { select } = query as { select?: object };
  return select ? { ...query, select: { ...select, id: true, createdAt: true } } : query;
}

/** Sort order of `NEWEST_FIRST`, for rows gathered from several relations. */
export function compareNewestFirst(a: PagePosition, b: PagePosition): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export const PageInfoRef = builder.objectRef<PageInfoShape>("PageInfo").implement({
  description: "Where a page ends and whether more follow (Relay cursor connections, forward paging).",
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage", { description: "True when another page follows this one." }),
    hasPreviousPage: t.exposeBoolean("hasPreviousPage", {
      description: "True when this page was asked for with `after`, so items come before it.",
    }),
    startCursor: t.exposeString("startCursor", {
      nullable: true,
      description: "Cursor of the first item of this page; null on an empty page.",
    }),
    endCursor: t.exposeString("endCursor", {
      nullable: true,
      description: "Pass as `after` to get the next page; null on an empty page.",
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

/** `<Name>Connection` and `<Name>Edge` types for a node type, Relay style, forward only. */
export function connectionType<NodeShape>(
  name: string,
  node: ObjectRef<SchemaTypes, NodeShape>,
  description: string,
) {
  const edge = builder.objectRef<{ cursor: string; node: NodeShape }>(`${name}Edge`).implement({
    description: `One ${name} in a page.`,
    fields: (t) => ({
      cursor: t.exposeString("cursor", { description: "Pass as `after` to continue after this item." }),
      // The generic shape defeats Pothos' resolver typing; the edge holds exactly a NodeShape.
      node: t.field({ type: node, description: `The ${name}.`, resolve: (parent) => parent.node as never }),
    }),
  });
  return builder.objectRef<Connection<NodeShape>>(`${name}Connection`).implement({
    description,
    fields: (t) => ({
      edges: t.field({
        type: [edge],
        description: "The items of this page, newest first.",
        resolve: (c) => c.edges,
      }),
      pageInfo: t.field({ type: PageInfoRef, description: "Paging state.", resolve: (c) => c.pageInfo }),
      totalCount: t.int({
        description: "How many items match, over all pages. Counted only when selected.",
        resolve: (c) => c.totalCount(),
      }),
    }),
  });
}
