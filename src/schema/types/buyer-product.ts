import { randomUUID } from "node:crypto";
import { ProductType } from "../../db/generated/prisma/enums.js";
import { validationFailed } from "../../domain/errors.js";
import { InputChecks, NON_BLANK_JSON_SCHEMA } from "../../domain/input-checks.js";
import { NO_MATCH } from "../../domain/match-rules.js";
import { createBuyerProduct } from "../../services/buyer-products.js";
import { builder } from "../builder.js";
import { containsWord, ordered } from "../conditions.js";
import { connectionType } from "../connection-types.js";
import type { GraphQLContext } from "../context.js";
import {
  ApprovalStatusEnum,
  ContainerTypeEnum,
  DocumentTypeEnum,
  MeasurementUnitEnum,
  ProductTypeEnum,
} from "../enums.js";
import { readsObject, readsPath, readsRowWithFallbacks, rows } from "../field-reads.js";
import {
  enumFilter,
  flagFilter,
  hasRelatedFilter,
  listFilters,
  relatedEnumFilter,
  textFilter,
} from "../list-filters.js";
import { mutationPair, payloadType, type RecordLoader, recordOrNull, valueOrNull } from "../mutation-pair.js";
import { buyerRecordField } from "../record-field.js";
import { requireViewer } from "../require-viewer.js";
import { searchableRootConnection } from "../searchable-list.js";
import { byOptionalText } from "../sort-keys.js";
import { NodeRef, nodeIdFields } from "./node.js";
import { ProductRef } from "./product.js";
import { checkResourceValues, ResourceValueInput, ResourceValueRef } from "./resource-value.js";

interface AutoMatchShape {
  matched: boolean;
  strategy: string;
  score: number;
}

const AutoMatchRef = builder.objectRef<AutoMatchShape>("AutoMatch").implement({
  description: "How a new buyer product was matched to the catalogue.",
  fields: (t) => ({
    matched: t.exposeBoolean("matched", {
      description: "True when an existing catalogue product was found; false when one was created.",
    }),
    strategy: t.exposeString("strategy", {
      description: "The rule that matched: cas_number, code, name, synonym, similar_name, or none.",
      // Read by the OpenAPI generator: what the String type cannot say.
      extensions: {
        jsonSchema: { enum: ["cas_number", "code", "name", "synonym", "similar_name", "none"] },
      },
    }),
    score: t.exposeFloat("score", {
      description: "1 for exact rules, the name similarity for similar_name, 0 for none.",
    }),
  }),
});

export const BuyerProductRef = builder.prismaObject("BuyerProduct", {
  interfaces: [NodeRef],
  description: "A product as the buyer buys it, matched to a catalogue product.",
  fields: (t) => ({
    rawMaterialName: t.exposeString("rawMaterialName", {
      nullable: true,
      description: "The buyer's name for it.",
    }),
    measurementUnit: t.expose("measurementUnit", {
      type: MeasurementUnitEnum,
      description: "Unit purchased in.",
    }),
    productType: t.expose("productType", { type: ProductTypeEnum, description: "Kind of product." }),
    rawMaterialCode: t.exposeString("rawMaterialCode", {
      nullable: true,
      description: "The buyer's code for it.",
    }),
    annualUsage: t.exposeInt("annualUsage", { nullable: true, description: "Annual usage." }),
    typicalOrderSize: t.exposeInt("typicalOrderSize", {
      nullable: true,
      description: "Typical purchase volume.",
    }),
    frequency: t.exposeString("frequency", { nullable: true, description: "Typical purchase frequency." }),
    containerType: t.expose("containerType", {
      type: ContainerTypeEnum,
      nullable: true,
      description: "Typical pack size.",
    }),
    targetApprovals: t.exposeInt("targetApprovals", {
      nullable: true,
      description: "Target number of approved materials.",
    }),
    priorityProduct: t.exposeBoolean("priorityProduct", { description: "True when critical to operations." }),
    active: t.exposeBoolean("active", { description: "Whether the product is in use." }),
    documentTypes: t.expose("documentTypes", {
      type: [DocumentTypeEnum],
      description: "Documents required for the product.",
    }),
    resourceValues: t.field({
      type: [ResourceValueRef],
      description: "Identifiers in external systems, in the order they were given.",
      ...readsPath(
        rows("resourceValues", { orderBy: ordered(["position", "asc"]), columns: ["provider", "value"] }),
      ),
    }),
    productId: t.expose("productId", {
      type: "UUID",
      description: "The catalogue product it was matched to.",
    }),
    autoMatch: t.field({
      type: AutoMatchRef,
      nullable: true,
      description:
        "How it was matched to the catalogue when it was created, as createBuyerProduct answered then. Null " +
        "for products created before the outcome was stored, and for products imported with their catalogue product.",
      ...readsObject(
        {
          matched: { differs: ["autoMatchStrategy"], from: NO_MATCH },
          strategy: ["autoMatchStrategy"],
          score: ["autoMatchScore"],
        },
        [["autoMatchStrategy"], ["autoMatchScore"]],
      ),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed." }),
    product: t.field({
      type: ProductRef,
      description: "The catalogue product it was matched to.",
      ...readsRowWithFallbacks(["product"], { name: ["rawMaterialName"] }),
    }),
  }),
});

nodeIdFields("BuyerProduct");

const BuyerProductConnectionRef = connectionType(
  "BuyerProduct",
  BuyerProductRef,
  "A page of the buyer's products, in the order of the field that answers it.",
);

/** The buyer products' `filter` and `query:` keys; docs/reference/graphql.md, "Searching with query", lists the same keys. */
export const BUYER_PRODUCT_FILTERS = listFilters({
  input: {
    name: "BuyerProductFilter",
    description: "Narrows a list of buyer products; every condition given must hold.",
  },
  filters: [
    textFilter(["rawMaterialName"], {
      name: "name",
      description: "name: `Gly*` a prefix (any case), `Glycerin` exact",
    }),
    textFilter(["rawMaterialCode"], {
      name: "code",
      description: "the buyer's code: `GLY-*` a prefix (any case), `GLY-1` exact",
    }),
    enumFilter("productType", {
      type: ProductTypeEnum,
      stored: Object.values(ProductType),
      field: { name: "productType", description: "Only products of one of these types." },
      key: { name: "type", description: "product type(s), comma separated: `raw_material`, `Packaging`" },
    }),
    hasRelatedFilter("approvals", {
      field: {
        name: "hasApprovals",
        description: "Only products with at least one approval (true) or with none (false).",
      },
      key: {
        name: "approvals",
        description: "`yes` for products with an approval, `no` for products without",
      },
    }),
    flagFilter("active", {
      name: "active",
      description: "Only products in use (true) or not in use (false).",
    }),
    flagFilter("priorityProduct", {
      name: "priorityProduct",
      description: "Only priority products (true) or only the others (false).",
    }),
    relatedEnumFilter("approvals", "approvalStatus", {
      type: ApprovalStatusEnum,
      field: {
        name: "approvalStatus",
        description: "Only products with at least one approval in one of these statuses.",
      },
    }),
  ],
  word: containsWord("rawMaterialName"),
});

builder.queryField("buyerProducts", (t) =>
  searchableRootConnection(t, {
    type: BuyerProductConnectionRef,
    model: "BuyerProduct",
    sortKeys: {
      NAME: byOptionalText("rawMaterialName", "The buyer's name for the product", "products"),
      CODE: byOptionalText("rawMaterialCode", "The buyer's code", "products"),
    },
    listed: "The buyer's products",
    filters: BUYER_PRODUCT_FILTERS,
    example: "glyc type:raw_material approvals:no",
    bareWord: "A bare word must appear in the name (any case).",
  }),
);

builder.queryField("buyerProduct", (t) =>
  buyerRecordField(t, {
    model: "BuyerProduct",
    description: "One of the buyer's products; null when the buyer has no product with this id.",
    idDescription: "The buyer product's id or global ID.",
    findFirst: (prisma, query) => prisma.buyerProduct.findFirst(query),
  }),
);

const loadBuyerProduct: RecordLoader<"BuyerProduct"> = (query, id, context) =>
  context.prisma.buyerProduct.findUniqueOrThrow({ ...query, where: { id } });

type CreatedBuyerProduct = { buyerProductId: string; autoMatch: AutoMatchShape };

const CreateBuyerProductPayloadRef = builder
  .objectRef<CreatedBuyerProduct>("CreateBuyerProductPayload")
  .implement({
    description: "The created buyer product and how it was matched.",
    fields: (t) => ({
      buyerProduct: t.prismaField({
        type: "BuyerProduct",
        description: "The created buyer product.",
        resolve: (query, payload, _args, context) => loadBuyerProduct(query, payload.buyerProductId, context),
      }),
      autoMatch: t.field({
        type: AutoMatchRef,
        description: "The auto-match outcome.",
        resolve: (payload) => payload.autoMatch,
      }),
    }),
  });

const BuyerProductCreatePayloadRef = payloadType<CreatedBuyerProduct>("BuyerProductCreatePayload", {
  description: "The created buyer product and how it was matched, or why it was refused.",
  userErrors: "Why it was refused; empty when it was created.",
  fields: (t) => ({
    buyerProduct: recordOrNull(t, {
      type: "BuyerProduct",
      description: "The created buyer product; null when refused.",
      id: (payload) => payload.buyerProductId,
      load: loadBuyerProduct,
    }),
    autoMatch: valueOrNull(t, "autoMatch", AutoMatchRef, "The auto-match outcome; null when refused."),
  }),
});

const CreateBuyerProductInput = builder.inputType("CreateBuyerProductInput", {
  description:
    "A new buyer product. It is matched to the catalogue, or a catalogue product is created for it.",
  fields: (t) => ({
    rawMaterialName: t.string({
      required: true,
      description: "The buyer's name for it; not blank.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    measurementUnit: t.field({
      type: MeasurementUnitEnum,
      required: true,
      description: "Unit purchased in.",
    }),
    productType: t.field({ type: ProductTypeEnum, required: true, description: "Kind of product." }),
    rawMaterialCode: t.string({ description: "The buyer's code for it." }),
    annualUsage: t.int({ description: "Annual usage; zero or more." }),
    typicalOrderSize: t.int({ description: "Typical purchase volume; zero or more." }),
    frequency: t.string({ description: "Typical purchase frequency." }),
    containerType: t.field({ type: ContainerTypeEnum, description: "Typical pack size." }),
    targetApprovals: t.int({ description: "Target number of approved materials; zero or more." }),
    priorityProduct: t.boolean({ description: "True when critical to operations; false when omitted." }),
    active: t.boolean({ description: "Whether the product is in use; true when omitted." }),
    documentTypes: t.field({
      type: [DocumentTypeEnum],
      description: "Documents required; each at most once.",
    }),
    resourceValues: t.field({ type: [ResourceValueInput], description: "External identifiers; at most 50." }),
  }),
});

type CreateBuyerProductValues = typeof CreateBuyerProductInput.$inferInput;
/** Checks, matches and creates for createBuyerProduct and buyerProductCreate alike. */
async function createBuyerProductFrom(
  context: GraphQLContext,
  input: CreateBuyerProductValues,
): Promise<CreatedBuyerProduct> {
  const viewer = requireViewer(context);
  const checks = new InputChecks();
  const rawMaterialName = checks.requiredText(["input", "rawMaterialName"], input.rawMaterialName);
  const rawMaterialCode = checks.optionalText(["input", "rawMaterialCode"], input.rawMaterialCode) || null;
  const frequency = checks.optionalText(["input", "frequency"], input.frequency) ?? null;
  for (const field of ["annualUsage", "typicalOrderSize", "targetApprovals"] as const) {
    checks.nonNegativeInteger(["input", field], input[field]);
  }
  const documentTypes = input.documentTypes ?? [];
  documentTypes.forEach((type, index) => {
    if (documentTypes.indexOf(type) !== index) {
      checks.add(["input", "documentTypes", index], "duplicate", "is listed more than once");
    }
  });
  const resourceValues = checkResourceValues(checks, ["input", "resourceValues"], input.resourceValues ?? []);
  if (checks.problems.length) throw validationFailed(checks.problems);

  const id = randomUUID();
  const autoMatch = await createBuyerProduct(context.prisma, {
    id,
    buyerId: viewer.buyerId,
    rawMaterialName,
    rawMaterialCode,
    measurementUnit: input.measurementUnit,
    productType: input.productType,
    annualUsage: input.annualUsage ?? null,
    typicalOrderSize: input.typicalOrderSize ?? null,
    frequency,
    containerType: input.containerType ?? null,
    targetApprovals: input.targetApprovals ?? null,
    priorityProduct: input.priorityProduct ?? false,
    active: input.active ?? true,
    documentTypes,
    resourceValues,
  });
  return { buyerProductId: id, autoMatch };
}

mutationPair({
  name: "createBuyerProduct",
  description:
    "Creates a buyer product and auto-matches it to the catalogue. Errors: VALIDATION_FAILED " +
    "(extensions.fieldErrors) for a blank or too long text, a negative number, a repeated document type " +
    "or bad resource values. buyerProductCreate does the same and answers these in `userErrors`.",
  twin: "buyerProductCreate",
  typedErrors: "VALIDATION_FAILED comes in `userErrors`, one per field, not as a top-level error.",
  args: (arg) => ({
    input: arg({ type: CreateBuyerProductInput, required: true, description: "The product." }),
  }),
  run: ({ input }, context) => createBuyerProductFrom(context, input),
  answer: { type: CreateBuyerProductPayloadRef },
  payload: BuyerProductCreatePayloadRef,
  toPayload: (created) => created,
});
