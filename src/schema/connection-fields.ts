// The two shapes every list field of this schema takes: a root field paging
// through the buyer's rows, and a relation paged inside its parent's SQL
// statement. Each is written once here; a type module adds one in a line.
import type { ObjectRef } from "@pothos/core";
import type { PrismaModelTypes } from "@pothos/plugin-prisma";
import type { Viewer } from "../auth/viewer.js";
import { batchCount } from "./batch.js";
import type { SchemaTypes } from "./builder.js";
import type { GraphQLContext } from "./context.js";
import {
  type Connection,
  type PageArgs,
  type PagePosition,
  pageArgs,
  readPage,
  relationPageQuery,
  rootPageQuery,
  toConnection,
  withPositionFields,
} from "./pagination.js";
import { requireViewer } from "./require-viewer.js";

/** What the connection helpers ask of a Prisma model delegate (`prisma.order`, …). */
interface PagedDelegate {
  findMany(query: object): Promise<PagePosition[]>;
  count(query: { where: object }): Promise<number>;
}

interface CountingDelegate {
  findMany(query: object): Promise<{ id: string; _count: Record<string, number> }[]>;
}

/** `prisma.buyerProductApproval` for the model `BuyerProductApproval`. */
function delegate<Delegate>(context: GraphQLContext, model: string): Delegate {
  const key = model.charAt(0).toLowerCase() + model.slice(1);
  return (context.prisma as unknown as Record<string, Delegate>)[key] as Delegate;
}

export interface RelationConnectionOptions<Model extends PrismaModelTypes, Node> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  description: string;
  /** The list relation paged, newest first. */
  relation: Model["ListRelations"] & string;
  /** Narrows the relation's rows, for paging and for the count alike. */
  where?: (context: GraphQLContext) => object;
}

/**
 * A connection over a list relation: each parent's page is loaded inside the
 * parent's SQL statement, and `totalCount`, when selected, is counted for
 * every parent of the list in one more statement. Bad `first`/`after` are
 * reported on this field, not on the parent that planned the statement.
 */
export function relationConnection<Model extends PrismaModelTypes, Shape extends object, Node>(
  t: PothosSchemaTypes.PrismaObjectFieldBuilder<SchemaTypes, Model, Shape>,
  { type, description, relation, where }: RelationConnectionOptions<Model, Node>,
) {
  const model = t.model;
  // Names the batch: one count statement per list of parents, however many parents ask.
  const batch = `${model}.${relation}`;
  const selectPage = (
    args: PageArgs,
    context: GraphQLContext,
    nestedSelection: (selection: object, path: string[]) => object,
  ) => ({
    [relation]: withPositionFields(
      nestedSelection(relationPageQuery(args, where?.(context) ?? {}), ["edges", "node"]),
    ),
  });
  return t.field({
    // The rows are the nodes: Prisma loads the node type's selection (`rootPageQuery`, `nestedSelection`).
    type: type as unknown as ObjectRef<SchemaTypes, Connection<PagePosition>>,
    description,
    args: pageArgs(t.arg),
    // Typed here: Pothos cannot check a selection keyed by a relation name that is a type parameter.
    select: selectPage as never,
    resolve: (parent, args, context) => {
      const rows = (parent as unknown as Record<string, PagePosition[]>)[relation] ?? [];
      const { id } = parent as unknown as { id: string };
      return toConnection(rows, readPage(args), () =>
        batchCount(context, batch, id, async (ids) => {
          const counted = where?.(context);
          const parents = await delegate<CountingDelegate>(context, model).findMany({
            where: { id: { in: ids } },
            select: { id: true, _count: { select: { [relation]: counted ? { where: counted } : true } } },
          });
          return parents.map((row) => ({ id: row.id, count: row._count[relation] ?? 0 }));
        }),
      );
    },
  });
}

export interface RootConnectionOptions<Node> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  description: string;
  /** The Prisma model listed. */
  model: "BuyerProduct" | "Tag" | "TagGroup" | "Supplier";
  /** The rows of the calling buyer. */
  where: (viewer: Viewer) => object;
}

/** A root list field of the buyer's rows, newest first (creation time, then id). */
export function rootConnection<Node>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { type, description, model, where }: RootConnectionOptions<Node>,
) {
  return t.field({
    // The rows are the nodes: Prisma loads the node type's selection (`rootPageQuery`, `nestedSelection`).
    type: type as unknown as ObjectRef<SchemaTypes, Connection<PagePosition>>,
    description,
    args: pageArgs(t.arg),
    resolve: async (_root, args, context, info) => {
      const filter = where(requireViewer(context));
      const page = readPage(args);
      const rows = delegate<PagedDelegate>(context, model);
      return toConnection(await rows.findMany(rootPageQuery(context, info, filter, page)), page, () =>
        rows.count({ where: filter }),
      );
    },
  });
}
