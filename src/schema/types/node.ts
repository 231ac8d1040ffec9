// The Node interface and node/nodes: every record with a global ID, fetched by
// that ID alone, as Relay and Apollo clients refetch and normalise records.
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import type { Viewer } from "../../auth/viewer.js";
import { validationFailed } from "../../domain/errors.js";
import { InputChecks } from "../../domain/input-checks.js";
import { builder } from "../builder.js";
import { allOf, hasId, isValue, type RecordIds, related } from "../conditions.js";
import type { GraphQLContext } from "../context.js";
import { readsGlobalId } from "../field-reads.js";
import { decodeGlobalId, NODE_TYPES, type NodeTypeName } from "../global-ids.js";
import { nodeReadExtension, nodesReadExtension } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";

/** At most this many ids per `nodes` call: a page of a list, not a table. */
export const MAX_NODE_IDS = 100;

/** The Node type each loaded row is, for resolveType. */
const typeOfRow = new WeakMap<object, NodeTypeName>();

export const NodeRef = builder.interfaceRef<{ id: string }>("Node").implement({
  description:
    "A record with a global ID: `id` is opaque and unique across types (pass it to `node`, `nodes` or any " +
    "argument that names a record of its type); `databaseId` is the record's UUID, as the REST API shows it.",
  fields: (t) => ({
    // Never called: every Node type defines its own `id` (nodeIdFields), which takes precedence.
    id: t.id({ description: "The global ID.", resolve: () => "" }),
  }),
  resolveType: (row) => typeOfRow.get(row) ?? null,
});

/** `id` (global) and `databaseId` (the UUID) of a Node type. */
export function nodeIdFields(type: NodeTypeName) {
  return builder.prismaObjectFields(type, (t) => ({
    id: t.id({
      description: `The ${type}'s global ID (see Node); its UUID is databaseId.`,
      ...readsGlobalId(type),
    }),
    databaseId: t.expose("id", {
      type: "UUID",
      description: `The ${type}'s UUID, as the REST API shows it.`,
    }),
  }));
}

/** The rows of each Node type the viewer may see, among `ids`. */
const VISIBLE: {
  readonly [Type in NodeTypeName]: (ids: RecordIds, viewer: Viewer) => object;
} = {
  Order: (ids, { buyerId }) => allOf([hasId(ids), isValue("buyerId", buyerId)]),
  BuyerProduct: (ids, { buyerId }) => allOf([hasId(ids), isValue("buyerId", buyerId)]),
  BuyerProductApproval: (ids, { buyerId }) => allOf([hasId(ids), isValue("buyerId", buyerId)]),
  Supplier: (ids, { buyerId }) =>
    allOf([hasId(ids), related("connections", true, isValue("buyerId", buyerId))]),
  // As Supplier.users shows them: the users this buyer created.
  SupplierUser: (ids, { buyerId }) => allOf([hasId(ids), isValue("createdByBuyerId", buyerId)]),
};

/** `node`'s and `nodes`' reads, for the planned reads: the condition `loadNodes` uses. */
const NODE_READ = nodeReadExtension(VISIBLE);
const NODES_READ = nodesReadExtension({ visible: VISIBLE, maxIds: MAX_NODE_IDS });

/** The rows of one Node type that the viewer may see, among `uuids`. */
async function loadNodes(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  viewer: Viewer,
  type: NodeTypeName,
  uuids: string[],
): Promise<{ id: string }[]> {
  const query = queryFromInfo({ context, info, typeName: type });
  const where = VISIBLE[type](uuids, viewer);
  const { prisma } = context;
  switch (type) {
    case "Order":
      return prisma.order.findMany({ ...query, where });
    case "BuyerProduct":
      return prisma.buyerProduct.findMany({ ...query, where });
    case "BuyerProductApproval":
      return prisma.buyerProductApproval.findMany({ ...query, where });
    case "Supplier":
      return prisma.supplier.findMany({ ...query, where });
    case "SupplierUser":
      return prisma.supplierUser.findMany({ ...query, where });
  }
}

/** Each global ID's record, or null where the viewer has none; one statement per type asked for. */
async function resolveNodes(
  globalIds: readonly string[],
  pathOf: (index: number) => (string | number)[],
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<({ id: string } | null)[]> {
  const viewer = requireViewer(context);
  const checks = new InputChecks();
  const decoded = globalIds.map((globalId, index) => {
    const found = decodeGlobalId(globalId);
    if (!found) {
      checks.add(pathOf(index), "invalid", "is not a global ID");
    }
    return found;
  });
  if (checks.problems.length) throw validationFailed(checks.problems);
  const rows = new Map<string, { id: string }>();
  await Promise.all(
    NODE_TYPES.map(async (type) => {
      const uuids = [...new Set(decoded.flatMap((item) => (item?.type === type ? [item.uuid] : [])))];
      if (uuids.length === 0) return;
      for (const row of await loadNodes(context, info, viewer, type, uuids)) {
        typeOfRow.set(row, type);
        rows.set(`${type}:${row.id}`, row);
      }
    }),
  );
  return decoded.map((item) => (item ? (rows.get(`${item.type}:${item.uuid}`) ?? null) : null));
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    description:
      "The record with this global ID; null when the buyer has none with it (another buyer's record " +
      "included). Errors: VALIDATION_FAILED when `id` is not a global ID.",
    args: { id: t.arg.id({ required: true, description: "A global ID (`Node.id`)." }) },
    extensions: NODE_READ,
    resolve: async (_root, { id }, context, info) => {
      const [row] = await resolveNodes([String(id)], () => ["id"], context, info);
      return row ?? null;
    },
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    description:
      `The records with these global IDs, in the same order, null where the buyer has none; at most ${MAX_NODE_IDS} ` +
      "ids, loaded with one statement per type. Errors: VALIDATION_FAILED (extensions.fieldErrors) for too " +
      "many ids or one that is not a global ID.",
    args: {
      ids: t.arg.idList({ required: true, description: `1 to ${MAX_NODE_IDS} global IDs.` }),
    },
    extensions: NODES_READ,
    resolve: (_root, { ids }, context, info) => {
      if (ids.length > MAX_NODE_IDS) {
        throw validationFailed([
          { path: ["ids"], code: "too_many", message: `must list at most ${MAX_NODE_IDS} ids` },
        ]);
      }
      return resolveNodes(ids.map(String), (index) => ["ids", index], context, info);
    },
  }),
}));
