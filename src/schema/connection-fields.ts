// The two shapes every list field of this schema takes: a root field paging
// through the buyer's rows, and a relation paged inside its parent's SQL
// statement. Each is written once here; a type module adds one in a line.
import type { InputFieldMap, InputShapeFromFields, ObjectRef } from "@pothos/core";
import type { PrismaModelTypes } from "@pothos/plugin-prisma";
import type { Viewer } from "../auth/viewer.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { DomainError, FieldProblem } from "../domain/errors.js";
import { batchCount } from "./batch.js";
import { builder, type SchemaTypes } from "./builder.js";
import { allOf } from "./conditions.js";
import { bothWaysPageArgs, type Connection, pageArgs, toConnection } from "./connection-types.js";
import { type GraphQLContext, modelDelegate } from "./context.js";
import { nodeSelection, rootPageQuery, withPositionFields } from "./page-query.js";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type PageArgs,
  readPage,
  readPageArgs,
  relationPageQuery,
  throwIfProblems,
} from "./page-window.js";
import { type RootListRead, relationPageExtension, rootListExtension } from "./read-metadata.js";
import { requireViewer } from "./require-viewer.js";
import { CREATED_AT, type PagePosition, type SortKey } from "./sort-keys.js";

/** What the connection helpers ask of a Prisma model delegate (`prisma.order`, …). */
export interface PagedDelegate {
  findMany(query: object): Promise<PagePosition[]>;
  count(query: { where: object }): Promise<number>;
}

interface CountingDelegate {
  findMany(query: object): Promise<{ id: string; _count: Record<string, number> }[]>;
}

export interface RelationConnectionOptions<Model extends PrismaModelTypes, Node> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  description: string;
  /** The list relation paged, newest first. */
  relation: Model["ListRelations"] & string;
  /** Narrows the relation's rows for the viewer, for paging and for the count alike: a condition of src/schema/conditions.ts. */
  where?: (viewer: Viewer | null) => object;
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
      nodeSelection(nestedSelection, relationPageQuery(args, where?.(context.viewer))),
    ),
  });
  return t.field({
    // The rows are the nodes: Prisma loads the node type's selection (`rootPageQuery`, `nestedSelection`).
    type: type as unknown as ObjectRef<SchemaTypes, Connection<PagePosition>>,
    description,
    args: pageArgs(t.arg),
    // Typed here: Pothos cannot check a selection keyed by a relation name that is a type parameter.
    select: selectPage as never,
    // The planned reads page the same rows in the parent's statement (src/schema/planner/relation-page.ts).
    extensions: relationPageExtension({ through: [relation], where }),
    resolve: (parent, args, context) => {
      const rows = (parent as unknown as Record<string, PagePosition[]>)[relation] ?? [];
      const { id } = parent as unknown as { id: string };
      return toConnection(rows, readPage(args), () =>
        batchCount(context, batch, id, async (ids) => {
          const counted = where?.(context.viewer);
          const parents = await modelDelegate<CountingDelegate>(context, model).findMany({
            where: { id: { in: ids } },
            select: { id: true, _count: { select: { [relation]: counted ? { where: counted } : true } } },
          });
          return parents.map((row) => ({ id: row.id, count: row._count[relation] ?? 0 }));
        }),
      );
    },
  });
}

/** A list's sort keys as a GraphQL enum (`OrderSortKeys`, …), each value naming its `SortKey`. */
export interface SortKeys {
  ref: PothosSchemaTypes.EnumRef<SchemaTypes, string, string>;
  keys: Record<string, SortKey>;
}

/** `<Name>SortKeys`: CREATED_AT (the default, newest first) and the list's other keys. */
export function sortKeysEnum(name: string, keys: Record<string, SortKey>): SortKeys {
  const ref = builder.enumType(`${name}SortKeys`, {
    description: `How a list of ${name} items can be sorted. Each key's description says its order when \`reverse\` is false; the id breaks ties, in the same direction.`,
    values: Object.fromEntries(
      Object.entries({ CREATED_AT, ...keys }).map(([key, sortKey]) => [
        key,
        { value: key, description: sortKey.description },
      ]),
    ),
  }) as unknown as PothosSchemaTypes.EnumRef<SchemaTypes, string, string>;
  return { ref, keys: { CREATED_AT, ...keys } };
}

/** The rows of each model a sorted root list pages through, by the model's name. */
const LISTED_ROWS = {
  Order: (prisma) => prisma.order,
  BuyerProductApproval: (prisma) => prisma.buyerProductApproval,
  BuyerProduct: (prisma) => prisma.buyerProduct,
  Tag: (prisma) => prisma.tag,
  TagGroup: (prisma) => prisma.tagGroup,
  Supplier: (prisma) => prisma.supplier,
} satisfies Record<string, (prisma: PrismaClient) => PagedDelegate>;

export interface RootConnectionOptions<Node, Extra extends InputFieldMap> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  description: string;
  /** The Prisma model listed. */
  model: keyof typeof LISTED_ROWS;
  sort: SortKeys;
  /** The rows of the calling buyer: a condition of src/schema/conditions.ts. */
  where: (viewer: Viewer) => object;
  /** Arguments that narrow the list (`filter`, `query`), beside the paging and sort arguments. */
  args?: Extra;
  /** The condition of those arguments (src/schema/conditions.ts); bad values go into `problems`, named by argument path. */
  narrow?: (args: InputShapeFromFields<Extra>, problems: FieldProblem[]) => object;
}

/**
 * A root list field of the buyer's rows: sorted by `sortKey` (newest first
 * when omitted) and `reverse`, paged both ways with cursors of that sort,
 * narrowed by the list's own arguments.
 */
export function rootConnection<Node, Extra extends InputFieldMap = Record<string, never>>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { type, description, model, sort, where, args, narrow }: RootConnectionOptions<Node, Extra>,
) {
  const read: RootListRead = {
    model,
    request: (fieldArgs, viewer) => {
      const { sortKey, reverse } = fieldArgs as { sortKey: string; reverse: boolean };
      const key = sort.keys[sortKey] ?? CREATED_AT;
      const problems: FieldProblem[] = [];
      const page = readPageArgs(fieldArgs, problems, { name: sortKey, key, reverse });
      const narrowed = narrow?.(fieldArgs as unknown as InputShapeFromFields<Extra>, problems);
      throwIfProblems(problems);
      return { where: allOf([where(viewer), ...(narrowed ? [narrowed] : [])]), page };
    },
  };
  return t.field({
    // The rows are the nodes: Prisma loads the node type's selection (`rootPageQuery`, `nestedSelection`).
    type: type as unknown as ObjectRef<SchemaTypes, Connection<PagePosition>>,
    description,
    args: {
      ...bothWaysPageArgs(t.arg),
      sortKey: t.arg({
        type: sort.ref,
        required: true,
        defaultValue: "CREATED_AT",
        description: "What the list is sorted by; cursors belong to the sort key they were issued for.",
      }),
      reverse: t.arg.boolean({
        required: true,
        defaultValue: false,
        description: "Reverses the sort key's order (ties included).",
      }),
      ...((args ?? {}) as Extra),
    },
    // The planned reads build the same rows' SQL from `request` (src/schema/planner/).
    extensions: rootListExtension(read),
    resolve: async (_root, fieldArgs, context, info) => {
      const { where: filter, page } = read.request(fieldArgs, requireViewer(context));
      const rows: PagedDelegate = LISTED_ROWS[model](context.prisma);
      return toConnection(await rows.findMany(rootPageQuery(context, info, filter, page)), page, () =>
        rows.count({ where: filter }),
      );
    },
  });
}

/**
 * The rows a newest-first list pages through: a condition of
 * src/schema/conditions.ts for the arguments (the planned reads plan it as
 * SQL too), and the row the arguments name that they belong to, when they
 * name one: it is looked up first, and the field refused (`missing`) where
 * the viewer has none.
 */
export interface NewestFirstRows<Extra extends InputFieldMap> {
  where: (args: InputShapeFromFields<Extra>, viewer: Viewer) => object;
  owner?: {
    model: string;
    /** The owning row's condition for the arguments, as the viewer may see it. */
    where: (args: InputShapeFromFields<Extra>, viewer: Viewer) => object;
    missing: () => DomainError;
  };
}

export interface NewestFirstConnectionOptions<Node, Extra extends InputFieldMap> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  description: string;
  /** The Prisma model listed, whose rows `rows` pages through: `WebhookEvent` and `prisma.webhookEvent`. */
  model: string;
  rows: (prisma: PrismaClient) => PagedDelegate;
  /** Arguments beside `first` and `after`. */
  args?: Extra;
  /** The condition of those arguments (src/schema/conditions.ts); bad values go into `problems`, named by argument path. */
  narrow?: (args: InputShapeFromFields<Extra>, problems: FieldProblem[]) => object;
  /** The rows of the calling buyer, once the arguments are checked. */
  listed: NewestFirstRows<Extra>;
}

/**
 * A root list field paged forward only, newest first (creation time, then
 * id), without sort keys; its `first`/`after` have their own descriptions.
 */
export function newestFirstConnection<Node, Extra extends InputFieldMap = Record<string, never>>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { type, description, model, rows, args, narrow, listed }: NewestFirstConnectionOptions<Node, Extra>,
) {
  const { owner } = listed;
  const read: RootListRead = {
    model,
    request: (fieldArgs, viewer) => {
      const problems: FieldProblem[] = [];
      const page = readPageArgs(fieldArgs, problems);
      const narrowed = narrow?.(fieldArgs as unknown as InputShapeFromFields<Extra>, problems);
      throwIfProblems(problems);
      const where = listed.where(fieldArgs as unknown as InputShapeFromFields<Extra>, viewer);
      return { where: allOf([where, ...(narrowed ? [narrowed] : [])]), page };
    },
    ...(owner && {
      owner: {
        model: owner.model,
        where: (fieldArgs, viewer) =>
          owner.where(fieldArgs as unknown as InputShapeFromFields<Extra>, viewer),
      },
    }),
  };
  return t.field({
    // The rows are the nodes, as in `rootConnection`.
    type: type as unknown as ObjectRef<SchemaTypes, Connection<PagePosition>>,
    description,
    args: {
      first: t.arg.int({
        description: `Page size, 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when omitted.`,
      }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
      ...((args ?? {}) as Extra),
    },
    // The planned reads build the same rows' SQL from `request` (src/schema/planner/).
    extensions: rootListExtension(read),
    resolve: async (_root, fieldArgs, context, info) => {
      // Without a key, UNAUTHENTICATED comes first, as on every root list.
      const viewer = requireViewer(context);
      const { where: filter, page } = read.request(fieldArgs, viewer);
      if (owner) {
        const found = await modelDelegate<OwnerDelegate>(context, owner.model).findFirst({
          where: owner.where(fieldArgs as unknown as InputShapeFromFields<Extra>, viewer),
          select: { id: true },
        });
        if (!found) throw owner.missing();
      }
      const delegate = rows(context.prisma);
      return toConnection(await delegate.findMany(rootPageQuery(context, info, filter, page)), page, () =>
        delegate.count({ where: filter }),
      );
    },
  });
}

interface OwnerDelegate {
  findFirst(query: { where: object; select: { id: true } }): Promise<{ id: string } | null>;
}
