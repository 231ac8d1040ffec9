import { batchCount } from "../batch.js";
import { builder } from "../builder.js";
import {
  connectionType,
  pageArgs,
  readPage,
  relationPageQuery,
  rootPageQuery,
  toConnection,
  withPositionFields,
} from "../pagination.js";
import { requireViewer } from "../require-viewer.js";
import { SupplierUserConnectionRef } from "./supplier-user.js";

// A UUID no row has: selections are planned before a resolver can refuse a request without a key.
const NO_BUYER = "00000000-0000-0000-0000-000000000000";

export const SupplierRef = builder.prismaObject("Supplier", {
  description: "A supplier the buyer is connected to.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The supplier's id (`supplier_profile_id` in REST)." }),
    name: t.exposeString("name", { description: "The supplier's name." }),
    relationship: t.string({
      nullable: true,
      description: "How the buyer is connected to the supplier, e.g. `approved_supplier`.",
      select: (_args, context) => ({
        connections: {
          where: { buyerId: context.viewer?.buyerId ?? NO_BUYER },
          select: { relationship: true },
          take: 1,
        },
      }),
      resolve: (supplier) => supplier.connections[0]?.relationship ?? null,
    }),
    users: t.field({
      type: SupplierUserConnectionRef,
      description: "The supplier's users that this buyer created, newest first.",
      args: pageArgs(t.arg),
      select: (args, context, nestedSelection) => ({
        users: withPositionFields(
          nestedSelection(
            relationPageQuery(args, { createdByBuyerId: context.viewer?.buyerId ?? NO_BUYER }),
            ["edges", "node"],
          ),
        ),
      }),
      resolve: (supplier, args, context) =>
        toConnection(supplier.users, readPage(args), () =>
          batchCount(context, "Supplier.users", supplier.id, async (ids) =>
            (
              await context.prisma.supplierUser.groupBy({
                by: ["supplierId"],
                where: { supplierId: { in: ids }, createdByBuyerId: requireViewer(context).buyerId },
                _count: { _all: true },
              })
            ).map((row) => ({ id: row.supplierId, count: row._count._all })),
          ),
        ),
    }),
  }),
});

const SupplierConnectionRef = connectionType(
  "Supplier",
  SupplierRef,
  "A page of the suppliers the buyer is connected to, newest first.",
);

builder.queryField("suppliers", (t) =>
  t.field({
    type: SupplierConnectionRef,
    description: "The suppliers the buyer is connected to, newest first (creation time, then id).",
    args: pageArgs(t.arg),
    resolve: async (_root, args, context, info) => {
      const where = { connections: { some: { buyerId: requireViewer(context).buyerId } } };
      const page = readPage(args);
      const rows = await context.prisma.supplier.findMany(rootPageQuery(context, info, where, page));
      return toConnection(rows, page, () => context.prisma.supplier.count({ where }));
    },
  }),
);
