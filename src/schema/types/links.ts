// The fields that link orders, buyer products and approvals to each other,
// in one place so that the three type modules need not import one another.

import { batchCount } from "../batch.js";
import { builder } from "../builder.js";
import { relationConnection } from "../connection-fields.js";
import { pageArgs, toConnection } from "../connection-types.js";
import { readsRow } from "../field-reads.js";
import { nodeSelection, withPositionFields } from "../page-query.js";
import { compareNewestFirst, readPage, relationPageQuery } from "../page-window.js";
import { relationPageExtension } from "../read-metadata.js";
import { ApprovalConnectionRef } from "./approval.js";
import { BuyerProductRef } from "./buyer-product.js";
import { OrderConnectionRef } from "./order.js";

builder.prismaObjectFields("Order", (t) => ({
  buyerProduct: t.field({
    type: BuyerProductRef,
    description: "The buyer product ordered (the approval's buyer product).",
    ...readsRow("approval", "buyerProduct"),
  }),
}));

builder.prismaObjectFields("BuyerProductApproval", (t) => ({
  orders: relationConnection(t, {
    type: OrderConnectionRef,
    relation: "orders",
    description: "Orders placed under this approval, newest first.",
  }),
}));

builder.prismaObjectFields("BuyerProduct", (t) => ({
  approvals: relationConnection(t, {
    type: ApprovalConnectionRef,
    relation: "approvals",
    description: "Approvals of suppliers' materials for this product, newest first.",
  }),
  orders: t.field({
    type: OrderConnectionRef,
    description: "Orders of this product under any of its approvals, newest first.",
    args: pageArgs(t.arg),
    // The planned reads page the orders of every approval at once (src/schema/planner/relation-page.ts).
    extensions: relationPageExtension({ through: ["approvals", "orders"] }),
    // Orders hang off approvals: each approval's newest page is loaded in
    // the same statement, and the pages are merged here.
    select: (args, _context, nestedSelection) => ({
      approvals: {
        select: { orders: withPositionFields(nodeSelection(nestedSelection, relationPageQuery(args))) },
      },
    }),
    resolve: (product, args, context) => {
      const rows = product.approvals.flatMap((approval) => approval.orders).sort(compareNewestFirst);
      return toConnection(rows, readPage(args), () =>
        batchCount(context, "BuyerProduct.orders", product.id, async (ids) =>
          (
            await context.prisma.buyerProductApproval.findMany({
              where: { buyerProductId: { in: ids } },
              select: { buyerProductId: true, _count: { select: { orders: true } } },
            })
          ).map((row) => ({ id: row.buyerProductId, count: row._count.orders })),
        ),
      );
    },
  }),
}));
