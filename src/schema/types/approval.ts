import { ApprovalStatus } from "../../db/generated/prisma/enums.js";
import { builder } from "../builder.js";
import { containsWord, isValue } from "../conditions.js";
import { connectionType } from "../connection-types.js";
import { ApprovalStatusEnum } from "../enums.js";
import { orNull } from "../field-options.js";
import { readsCounts } from "../field-reads.js";
import { enumFilter, idFilter, listFilters, textFilter } from "../list-filters.js";
import { buyerRecordField } from "../record-field.js";
import { searchableRootConnection } from "../searchable-list.js";
import { byOptionalText } from "../sort-keys.js";
import { NodeRef, nodeIdFields } from "./node.js";

const camelCase = (name: string) =>
  name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** Each status by the name of its count. */
const STATUS_OF_COUNT = Object.fromEntries(
  Object.values(ApprovalStatus).map((status) => [camelCase(status), status]),
);

const ApprovalCountsRef = builder.objectRef<Record<string, number>>("ApprovalCounts").implement({
  description: "How many of a buyer product's approvals are in each status.",
  fields: (t) => ({
    ...Object.fromEntries(
      Object.entries(STATUS_OF_COUNT).map(([count, status]) => [
        count,
        t.exposeInt(count, { description: `Approvals in status ${status.toUpperCase()}.` }),
      ]),
    ),
    total: t.exposeInt("total", { description: "All of the product's approvals." }),
  }),
});

builder.prismaObjectFields("BuyerProduct", (t) => ({
  approvalCounts: t.field({
    type: ApprovalCountsRef,
    description:
      "How many of its approvals are in each status. The counts of every product of a page come from one statement.",
    ...readsCounts(
      {
        model: "BuyerProductApproval",
        key: { buyerProductId: "id" },
        where: (viewer) => isValue("buyerId", viewer.buyerId),
      },
      "approvalStatus",
      STATUS_OF_COUNT,
      "total",
    ),
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
    supplierName: t.exposeString("supplierName", orNull("The supplier's name.")),
    catalogueParentDisplayName: t.exposeString(
      "catalogueParentDisplayName",
      orNull("The supplier's name for the product."),
    ),
    catalogueParentProductCode: t.exposeString(
      "catalogueParentProductCode",
      orNull("The supplier's code for the product."),
    ),
    reference: t.exposeString("reference", orNull("Reference assigned by the service.")),
    buyerProductId: t.expose("buyerProductId", { type: "UUID", description: "The buyer product approved." }),
    supplierProfileId: t.expose("supplierId", {
      type: "UUID",
      ...orNull("The supplier, when one is chosen."),
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
  "A page of buyer product approvals, in the order of the field that answers it.",
);

/** The approvals' `filter` and `query:` keys; docs/reference/graphql.md, "Searching with query", lists the same keys. */
export const APPROVAL_FILTERS = listFilters({
  input: { name: "BuyerProductApprovalFilter", description: "Narrows a list of approvals." },
  filters: [
    textFilter(["reference"], {
      name: "reference",
      description: "the approval's reference: `APP-*` a prefix (any case), `APP-1` exact",
    }),
    idFilter("supplierId", "Supplier", {
      field: {
        name: "supplierId",
        description: "Only approvals of one of these suppliers (ids or global IDs).",
      },
      key: { name: "supplier", description: "supplier id(s), comma separated" },
    }),
    idFilter("buyerProductId", "BuyerProduct", {
      field: {
        name: "buyerProductId",
        single: true,
        description: "Only approvals of this buyer product (its id or global ID).",
        rest: {},
      },
      key: { name: "product", description: "buyer product id(s), comma separated" },
    }),
    enumFilter("approvalStatus", {
      type: ApprovalStatusEnum,
      stored: Object.values(ApprovalStatus),
      field: {
        name: "approvalStatus",
        description: "Only approvals in one of these statuses.",
        rest: {
          description: "Repeat it for several. `approval_status=approved,preferred` is accepted too.",
          example: ["approved", "preferred"],
        },
      },
      key: { name: "status", description: "status(es), comma separated: `approved`, `SAMPLE_REQUESTED`" },
    }),
  ],
  word: containsWord("supplierName"),
});

builder.queryField("buyerProductApprovals", (t) =>
  searchableRootConnection(t, {
    type: ApprovalConnectionRef,
    model: "BuyerProductApproval",
    sortKeys: {
      SUPPLIER_NAME: byOptionalText("supplierName", "The supplier's name", "approvals"),
      REFERENCE: byOptionalText("reference", "The service's reference", "approvals"),
    },
    listed: "The buyer's product approvals",
    filters: APPROVAL_FILTERS,
    example: "status:approved,preferred reference:APP-*",
    bareWord: "A bare word must appear in the supplier's name (any case).",
  }),
);

builder.queryField("buyerProductApproval", (t) =>
  buyerRecordField(t, {
    model: "BuyerProductApproval",
    description: "One of the buyer's approvals; null when the buyer has no approval with this id.",
    idDescription: "The approval's id or global ID.",
    findFirst: (prisma, query) => prisma.buyerProductApproval.findFirst(query),
  }),
);
