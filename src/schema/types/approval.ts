import { ApprovalStatus } from "../../db/generated/prisma/enums.js";
import { batchLoad } from "../batch.js";
import { builder } from "../builder.js";
import { ApprovalStatusEnum } from "../enums.js";
import { takesIdsOf } from "../global-ids.js";
import { connectionType, readPageArgs, rootPageQuery, throwIfProblems, toConnection } from "../pagination.js";
import { requireViewer } from "../require-viewer.js";
import { NodeRef, nodeIdFields } from "./node.js";

type ApprovalStatusValue = (typeof ApprovalStatus)[keyof typeof ApprovalStatus];
type ApprovalCounts = Record<ApprovalStatusValue, number> & { total: number };

const camelCase = (name: string) =>
  name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

const ApprovalCountsRef = builder.objectRef<ApprovalCounts>("ApprovalCounts").implement({
  description: "How many of a buyer product's approvals are in each status.",
  fields: (t) => ({
    ...Object.fromEntries(
      Object.values(ApprovalStatus).map((status) => [
        camelCase(status),
        t.int({
          description: `Approvals in status ${status.toUpperCase()}.`,
          resolve: (counts) => counts[status],
        }),
      ]),
    ),
    total: t.exposeInt("total", { description: "All of the product's approvals." }),
  }),
});

function noApprovals(): ApprovalCounts {
  const counts = Object.fromEntries(Object.values(ApprovalStatus).map((status) => [status, 0]));
  return { ...(counts as Record<ApprovalStatusValue, number>), total: 0 };
}

builder.prismaObjectFields("BuyerProduct", (t) => ({
  approvalCounts: t.field({
    type: ApprovalCountsRef,
    description:
      "How many of its approvals are in each status. The counts of every product of a page come from one statement.",
    resolve: async (product, _args, context) => {
      const buyerId = requireViewer(context).buyerId;
      const counts = await batchLoad(context, "BuyerProduct.approvalCounts", product.id, async (ids) => {
        const groups = await context.prisma.buyerProductApproval.groupBy({
          by: ["buyerProductId", "approvalStatus"],
          where: { buyerId, buyerProductId: { in: ids } },
          _count: { _all: true },
        });
        const byProduct = new Map<string, ApprovalCounts>();
        for (const group of groups) {
          const entry = byProduct.get(group.buyerProductId) ?? noApprovals();
          entry[group.approvalStatus] += group._count._all;
          entry.total += group._count._all;
          byProduct.set(group.buyerProductId, entry);
        }
        return byProduct;
      });
      return counts ?? noApprovals();
    },
  }),
}));

export const BuyerProductApprovalRef = builder.prismaObject("BuyerProductApproval", {
  interfaces: [NodeRef],
  description: "The approval of one supplier's material for one of the buyer's products.",
  fields: (t) => ({
    approvalStatus: t.expose("approvalStatus", {
      type: ApprovalStatusEnum,
      description: "Where the approval stands.",
    }),
    supplierName: t.exposeString("supplierName", { nullable: true, description: "The supplier's name." }),
    catalogueParentDisplayName: t.exposeString("catalogueParentDisplayName", {
      nullable: true,
      description: "The supplier's name for the product.",
    }),
    catalogueParentProductCode: t.exposeString("catalogueParentProductCode", {
      nullable: true,
      description: "The supplier's code for the product.",
    }),
    reference: t.exposeString("reference", {
      nullable: true,
      description: "Reference assigned by the service.",
    }),
    buyerProductId: t.expose("buyerProductId", { type: "UUID", description: "The buyer product approved." }),
    supplierProfileId: t.expose("supplierId", {
      type: "UUID",
      nullable: true,
      description: "The supplier, when one is chosen.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the approval was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the approval last changed." }),
    buyerProduct: t.relation("buyerProduct", { description: "The buyer product approved." }),
    supplier: t.relation("supplier", {
      nullable: true,
      description: "The supplier whose material is approved, when one is chosen.",
    }),
  }),
});

nodeIdFields("BuyerProductApproval");

export const ApprovalConnectionRef = connectionType(
  "BuyerProductApproval",
  BuyerProductApprovalRef,
  "A page of buyer product approvals, newest first.",
);

const ApprovalFilterInput = builder.inputType("BuyerProductApprovalFilter", {
  description: "Narrows a list of approvals.",
  fields: (t) => ({
    approvalStatus: t.field({
      type: [ApprovalStatusEnum],
      description: "Only approvals in one of these statuses.",
    }),
    buyerProductId: t.field({
      type: "UUID",
      description: "Only approvals of this buyer product (its id or global ID).",
      extensions: takesIdsOf("BuyerProduct"),
    }),
  }),
});

builder.queryField("buyerProductApprovals", (t) =>
  t.field({
    type: ApprovalConnectionRef,
    description: "The buyer's product approvals, newest first (creation time, then id).",
    args: {
      first: t.arg.int({ description: "Page size, 1 to 500; 100 when omitted." }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
      filter: t.arg({ type: ApprovalFilterInput, description: "Filters." }),
    },
    resolve: async (_root, args, context, info) => {
      const viewer = requireViewer(context);
      const problems: Parameters<typeof throwIfProblems>[0] = [];
      const page = readPageArgs(args, problems);
      throwIfProblems(problems);
      const statuses = args.filter?.approvalStatus;
      const buyerProductId = args.filter?.buyerProductId;
      const where = {
        buyerId: viewer.buyerId,
        ...(statuses?.length ? { approvalStatus: { in: statuses } } : {}),
        ...(buyerProductId ? { buyerProductId } : {}),
      };
      const rows = await context.prisma.buyerProductApproval.findMany(
        rootPageQuery(context, info, where, page),
      );
      return toConnection(rows, page, () => context.prisma.buyerProductApproval.count({ where }));
    },
  }),
);
