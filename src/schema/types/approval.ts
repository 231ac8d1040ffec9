import { builder } from "../builder.js";
import { ApprovalStatusEnum } from "../enums.js";
import { connectionType, readPageArgs, rootPageQuery, throwIfProblems, toConnection } from "../pagination.js";
import { requireViewer } from "../require-viewer.js";

export const BuyerProductApprovalRef = builder.prismaObject("BuyerProductApproval", {
  description: "The approval of one supplier's material for one of the buyer's products.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The approval's id." }),
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
    buyerProductId: t.field({ type: "UUID", description: "Only approvals of this buyer product." }),
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

builder.queryField("buyerProductApproval", (t) =>
  t.prismaField({
    type: "BuyerProductApproval",
    nullable: true,
    description: "One of the buyer's approvals; null when the buyer has no approval with this id.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The approval's id." }) },
    resolve: (query, _root, { id }, context) =>
      context.prisma.buyerProductApproval.findFirst({
        ...query,
        where: { id, buyerId: requireViewer(context).buyerId },
      }),
  }),
);
