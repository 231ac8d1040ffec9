// The order mutations: updateOrder, and orderUpdate, which answers the same
// refusals as userErrors.
import { validationFailed } from "../../domain/errors.js";
import { InputChecks, NON_BLANK_JSON_SCHEMA } from "../../domain/input-checks.js";
import { updateOrder } from "../../services/order-update.js";
import { builder } from "../builder.js";
import type { GraphQLContext } from "../context.js";
import { OrderStatusEnum } from "../enums.js";
import { takesIdsOf } from "../global-ids.js";
import { recordMutationPair } from "../mutation-pair.js";
import { requireViewer } from "../require-viewer.js";
import { checkResourceValues, ResourceValueInput } from "./resource-value.js";

const UpdateOrderInput = builder.inputType("UpdateOrderInput", {
  description:
    "Changes to an order. An absent field is left as it is; so is a field set to null (in GraphQL), except " +
    "the two references, where null clears the reference.",
  fields: (t) => ({
    orderStatus: t.field({
      type: OrderStatusEnum,
      description:
        "The new status; it may only move forward (see OrderStatus and Order.allowedNextStatuses).",
    }),
    purchaseOrderReference: t.string({
      description: "The buyer's purchase order reference; trimmed, not blank; null clears it.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    supplierOrderReference: t.string({
      description: "The supplier's order reference; trimmed, not blank; null clears it.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    placedAt: t.field({
      type: "DateTime",
      description: "When the order was placed.",
    }),
    resourceValues: t.field({
      type: [ResourceValueInput],
      description: "Replaces all of the order's external identifiers (at most 50; [] removes them all).",
    }),
  }),
});

type UpdateOrderValues = typeof UpdateOrderInput.$inferInput;

/** Checks and applies an update for updateOrder and orderUpdate alike. */
async function applyOrderUpdate(
  context: GraphQLContext,
  id: string,
  input: UpdateOrderValues,
): Promise<void> {
  const viewer = requireViewer(context);
  const checks = new InputChecks();
  const purchaseOrderReference = checks.optionalNonBlankText(
    ["input", "purchaseOrderReference"],
    input.purchaseOrderReference,
  );
  const supplierOrderReference = checks.optionalNonBlankText(
    ["input", "supplierOrderReference"],
    input.supplierOrderReference,
  );
  const resourceValues = input.resourceValues
    ? checkResourceValues(checks, ["input", "resourceValues"], input.resourceValues)
    : undefined;
  if (checks.problems.length) throw validationFailed(checks.problems);
  const { write } = context;
  const { version } = await updateOrder(
    context.prisma,
    viewer,
    id,
    {
      orderStatus: input.orderStatus ?? undefined,
      purchaseOrderReference,
      supplierOrderReference,
      placedAt: input.placedAt ?? undefined,
      resourceValues,
    },
    write?.precondition ?? undefined,
  );
  if (write) write.producedVersion = version;
}

recordMutationPair({
  name: "updateOrder",
  description:
    "Changes an order of the buyer. Status changes follow the transition rules; every change is recorded " +
    "as an order event and announced to `orderUpdated` subscribers. Errors: VALIDATION_FAILED " +
    "(extensions.fieldErrors) for blank or too long references or bad resource values; NOT_FOUND when the " +
    "buyer has no such order; INVALID_TRANSITION (extensions.allowedStatuses) when the status may not move " +
    "there. orderUpdate does the same and answers these in `userErrors`.",
  twin: "orderUpdate",
  typedErrors:
    "VALIDATION_FAILED, NOT_FOUND (field `id`) and INVALID_TRANSITION " +
    "(field `input.orderStatus`, with allowedStatuses) come in `userErrors`, not as top-level errors.",
  fieldOf: { NOT_FOUND: ["id"], INVALID_TRANSITION: ["input", "orderStatus"] },
  args: (arg) => ({
    id: arg({
      type: "UUID",
      required: true,
      description: "The order's id or global ID.",
      extensions: takesIdsOf("Order"),
    }),
    input: arg({ type: UpdateOrderInput, required: true, description: "The changes." }),
  }),
  run: async ({ id, input }, context) => {
    await applyOrderUpdate(context, id, input);
    return id;
  },
  record: "Order",
  load: (query, id, context) => context.prisma.order.findUniqueOrThrow({ ...query, where: { id } }),
  payload: {
    name: "OrderUpdatePayload",
    description: "The updated order, or why the update was refused.",
    userErrors: "Why the update was refused; empty when it was made.",
    field: "order",
    fieldDescription: "The order as it is now; null when the update was refused.",
  },
});
