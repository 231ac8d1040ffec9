import type { Viewer } from "../../auth/viewer.js";
import { validationFailed } from "../../domain/errors.js";
import { InputChecks, NON_BLANK_JSON_SCHEMA } from "../../domain/input-checks.js";
import { createSupplierUser } from "../../services/supplier-users.js";
import { builder } from "../builder.js";
import { allOf, hasId, isValue, type RecordIds } from "../conditions.js";
import { connectionType } from "../connection-types.js";
import type { GraphQLContext } from "../context.js";
import { takesIdsOf } from "../global-ids.js";
import { recordMutationPair } from "../mutation-pair.js";
import { recordByIdExtension } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";
import { NodeRef, nodeIdFields } from "./node.js";

export const SupplierUserRef = builder.prismaObject("SupplierUser", {
  interfaces: [NodeRef],
  description: "A person at a supplier.",
  fields: (t) => ({
    firstName: t.exposeString("firstName", { nullable: true, description: "First name." }),
    lastName: t.exposeString("lastName", { nullable: true, description: "Last name." }),
    contactEmail: t.exposeString("contactEmail", { description: "Email address." }),
    supplierProfileId: t.expose("supplierId", {
      type: "UUID",
      description: "The supplier the user belongs to.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the user was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the user last changed." }),
  }),
});

nodeIdFields("SupplierUser");

export const SupplierUserConnectionRef = connectionType(
  "SupplierUser",
  SupplierUserRef,
  "A page of supplier users, newest first.",
);

const CreateSupplierUserInput = builder.inputType("CreateSupplierUserInput", {
  description: "A new user under a supplier the buyer is connected to.",
  fields: (t) => ({
    supplierId: t.field({
      type: "UUID",
      required: true,
      description: "The supplier: its id or global ID.",
      extensions: takesIdsOf("Supplier"),
    }),
    firstName: t.string({
      required: true,
      description: "First name; trimmed, not blank, at most 255 characters.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    lastName: t.string({
      required: true,
      description: "Last name; trimmed, not blank, at most 255 characters.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    contactEmail: t.string({
      required: true,
      description: "Email address; unique per supplier regardless of case.",
    }),
  }),
});

type CreateSupplierUserValues = typeof CreateSupplierUserInput.$inferInput;

/** Checks and creates for createSupplierUser and supplierUserCreate alike; answers the new user's id. */
async function createSupplierUserFrom(
  context: GraphQLContext,
  input: CreateSupplierUserValues,
): Promise<string> {
  const viewer = requireViewer(context);
  const checks = new InputChecks();
  const firstName = checks.requiredText(["input", "firstName"], input.firstName);
  const lastName = checks.requiredText(["input", "lastName"], input.lastName);
  const contactEmail = checks.requiredText(["input", "contactEmail"], input.contactEmail);
  checks.email(["input", "contactEmail"], contactEmail);
  if (checks.problems.length) throw validationFailed(checks.problems);

  return createSupplierUser(context.prisma, viewer.buyerId, {
    supplierId: input.supplierId,
    firstName,
    lastName,
    contactEmail,
  });
}

recordMutationPair({
  name: "createSupplierUser",
  description:
    "Creates a user under a supplier the buyer is connected to. Errors: VALIDATION_FAILED " +
    "(extensions.fieldErrors) for a blank or too long name or an invalid email; NOT_FOUND when the " +
    "supplier is unknown or not connected to the buyer; ALREADY_EXISTS when the supplier already has " +
    "a user with this email (compared case-insensitively). supplierUserCreate does the same and answers " +
    "these in `userErrors`.",
  twin: "supplierUserCreate",
  typedErrors:
    "VALIDATION_FAILED, NOT_FOUND (field `input.supplierId`) and " +
    "ALREADY_EXISTS (field `input.contactEmail`) come in `userErrors`, not as top-level errors.",
  fieldOf: { NOT_FOUND: ["input", "supplierId"], ALREADY_EXISTS: ["input", "contactEmail"] },
  args: (arg) => ({
    input: arg({ type: CreateSupplierUserInput, required: true, description: "The user." }),
  }),
  run: ({ input }, context) => createSupplierUserFrom(context, input),
  record: "SupplierUser",
  load: (query, id, context) => context.prisma.supplierUser.findUniqueOrThrow({ ...query, where: { id } }),
  payload: {
    name: "SupplierUserCreatePayload",
    description: "The created supplier user, or why it was refused.",
    userErrors: "Why it was refused; empty when it was created.",
    field: "supplierUser",
    fieldDescription: "The created user; null when refused.",
  },
});

/** A supplier user the viewer's buyer created. */
const createdBy = (ids: RecordIds, viewer: Viewer) =>
  allOf([hasId(ids), isValue("createdByBuyerId", viewer.buyerId)]);

builder.queryField("supplierUser", (t) =>
  t.prismaField({
    type: "SupplierUser",
    nullable: true,
    description:
      "A supplier user the buyer created; null for any other id. Events (supplier_user.created) show it this way.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The user's id." }) },
    extensions: recordByIdExtension("SupplierUser", createdBy),
    resolve: (query, _root, { id }, context) =>
      context.prisma.supplierUser.findFirst({ ...query, where: createdBy(id, requireViewer(context)) }),
  }),
);
