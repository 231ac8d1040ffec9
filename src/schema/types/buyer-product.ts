import { randomUUID } from "node:crypto";
import { matchOrCreateProduct } from "../../domain/auto-match.js";
import { validationFailed } from "../../domain/errors.js";
import { InputChecks } from "../../domain/input-checks.js";
import { builder } from "../builder.js";
import { rootConnection } from "../connection-fields.js";
import { ContainerTypeEnum, DocumentTypeEnum, MeasurementUnitEnum, ProductTypeEnum } from "../enums.js";
import { connectionType } from "../pagination.js";
import { requireViewer } from "../require-viewer.js";
import { ProductRef, withOwnName } from "./product.js";
import { checkResourceValues, ResourceValueInput, ResourceValueRef } from "./resource-value.js";

export const BuyerProductRef = builder.prismaObject("BuyerProduct", {
  description: "A product as the buyer buys it, matched to a catalogue product.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The buyer product's id." }),
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
      select: { resourceValues: { orderBy: { position: "asc" }, select: { provider: true, value: true } } },
      resolve: (product) => product.resourceValues,
    }),
    productId: t.expose("productId", {
      type: "UUID",
      description: "The catalogue product it was matched to.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed." }),
    product: t.field({
      type: ProductRef,
      description: "The catalogue product it was matched to.",
      select: (_args, _context, nestedSelection) => ({ product: nestedSelection(true) }),
      resolve: (buyerProduct) => withOwnName(buyerProduct.product, buyerProduct.rawMaterialName),
    }),
  }),
});

const BuyerProductConnectionRef = connectionType(
  "BuyerProduct",
  BuyerProductRef,
  "A page of the buyer's products, newest first.",
);

builder.queryField("buyerProducts", (t) =>
  rootConnection(t, {
    type: BuyerProductConnectionRef,
    model: "BuyerProduct",
    where: (viewer) => ({ buyerId: viewer.buyerId }),
    description: "The buyer's products, newest first (creation time, then id).",
  }),
);

builder.queryField("buyerProduct", (t) =>
  t.prismaField({
    type: "BuyerProduct",
    nullable: true,
    description: "One of the buyer's products; null when the buyer has no product with this id.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The buyer product's id." }) },
    resolve: (query, _root, { id }, context) =>
      context.prisma.buyerProduct.findFirst({
        ...query,
        where: { id, buyerId: requireViewer(context).buyerId },
      }),
  }),
);

const AutoMatchRef = builder
  .objectRef<{ matched: boolean; strategy: string; score: number }>("AutoMatch")
  .implement({
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

const CreateBuyerProductPayloadRef = builder
  .objectRef<{ buyerProductId: string; autoMatch: { matched: boolean; strategy: string; score: number } }>(
    "CreateBuyerProductPayload",
  )
  .implement({
    description: "The created buyer product and how it was matched.",
    fields: (t) => ({
      buyerProduct: t.prismaField({
        type: "BuyerProduct",
        description: "The created buyer product.",
        resolve: (query, payload, _args, context) =>
          context.prisma.buyerProduct.findUniqueOrThrow({ ...query, where: { id: payload.buyerProductId } }),
      }),
      autoMatch: t.field({
        type: AutoMatchRef,
        description: "The auto-match outcome.",
        resolve: (p) => p.autoMatch,
      }),
    }),
  });

const CreateBuyerProductInput = builder.inputType("CreateBuyerProductInput", {
  description:
    "A new buyer product. It is matched to the catalogue, or a catalogue product is created for it.",
  fields: (t) => ({
    rawMaterialName: t.string({ required: true, description: "The buyer's name for it; not blank." }),
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

builder.mutationField("createBuyerProduct", (t) =>
  t.field({
    type: CreateBuyerProductPayloadRef,
    description:
      "Creates a buyer product and auto-matches it to the catalogue. Errors: VALIDATION_FAILED " +
      "(extensions.fieldErrors) for a blank or too long text, a negative number, a repeated document type " +
      "or bad resource values.",
    args: { input: t.arg({ type: CreateBuyerProductInput, required: true, description: "The product." }) },
    resolve: async (_root, { input }, context) => {
      const viewer = requireViewer(context);
      const checks = new InputChecks();
      const rawMaterialName = checks.requiredText(["input", "rawMaterialName"], input.rawMaterialName);
      const rawMaterialCode =
        checks.optionalText(["input", "rawMaterialCode"], input.rawMaterialCode) || null;
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
      const resourceValues = checkResourceValues(
        checks,
        ["input", "resourceValues"],
        input.resourceValues ?? [],
      );
      if (checks.problems.length) throw validationFailed(checks.problems);

      const id = randomUUID();
      const autoMatch = await context.prisma.$transaction(async (tx) => {
        const match = await matchOrCreateProduct(
          tx,
          { rawMaterialName, rawMaterialCode, productType: input.productType },
          id,
        );
        await tx.buyerProduct.create({
          data: {
            id,
            buyerId: viewer.buyerId,
            productId: match.productId,
            rawMaterialName,
            measurementUnit: input.measurementUnit,
            productType: input.productType,
            rawMaterialCode,
            annualUsage: input.annualUsage ?? null,
            typicalOrderSize: input.typicalOrderSize ?? null,
            frequency,
            containerType: input.containerType ?? null,
            targetApprovals: input.targetApprovals ?? null,
            priorityProduct: input.priorityProduct ?? false,
            active: input.active ?? true,
            documentTypes,
            resourceValues: { create: resourceValues.map((item, position) => ({ position, ...item })) },
          },
          select: { id: true },
        });
        // Kept for the buyer_product.created event, which shows it as `auto_match`.
        await tx.buyerProductAutoMatch.create({
          data: { buyerProductId: id, matched: match.matched, strategy: match.strategy, score: match.score },
        });
        return match;
      });
      return { buyerProductId: id, autoMatch };
    },
  }),
);
