// Connection types: the Relay `Connection`, `Edge` and `PageInfo` shapes, their
// paging arguments, and a page of rows turned into a connection.
import type { ArgBuilder, ObjectRef } from "@pothos/core";
import { builder, type SchemaTypes } from "./builder.js";
import { encodeCursor } from "./cursor.js";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type PageInfoShape,
  type PageRequest,
  pageInfoOf,
  pageNodes,
} from "./page-window.js";
import type { ListOrder } from "./sort-keys.js";

export interface Connection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: PageInfoShape;
  /** Counts every item the filters match, ignoring paging; only called when a client selects `totalCount`. */
  totalCount: () => Promise<number>;
}

/** Runs `count` at most once, and only if asked: `totalCount` may be selected twice, or not at all. */
function lazyCount(count: () => Promise<number>): () => Promise<number> {
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

const PageInfoRef = builder.objectRef<PageInfoShape>("PageInfo").implement({
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
