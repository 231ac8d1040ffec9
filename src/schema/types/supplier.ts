import { builder } from "../builder.js";
import { isValue, related } from "../conditions.js";
import { relationConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { readsPath, rows } from "../field-reads.js";
import { namedRootConnection } from "../named-list.js";
import { NodeRef, nodeIdFields } from "./node.js";
import { SupplierUserConnectionRef } from "./supplier-user.js";

// A UUID no row has: selections are planned before a resolver can refuse a request without a key.
const NO_BUYER = "00000000-0000-0000-0000-000000000000";

export const SupplierRef = builder.prismaObject("Supplier", {
  interfaces: [NodeRef],
  description: "A supplier the buyer is connected to.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The supplier's name." }),
    relationship: t.string({
      nullable: true,
      description: "How the buyer is connected to the supplier, e.g. `approved_supplier`.",
      ...readsPath(
        rows("connections", {
          where: ({ viewer }) => isValue("buyerId", viewer?.buyerId ?? NO_BUYER),
          take: 1,
        }),
        0,
        "relationship",
      ),
    }),
    users: relationConnection(t, {
      type: SupplierUserConnectionRef,
      relation: "users",
      where: (viewer) => isValue("createdByBuyerId", viewer?.buyerId ?? NO_BUYER),
      description: "The supplier's users that this buyer created, newest first.",
    }),
  }),
});

nodeIdFields("Supplier");

const SupplierConnectionRef = connectionType(
  "Supplier",
  SupplierRef,
  "A page of the suppliers the buyer is connected to, in the order of the field that answers it.",
);

builder.queryField("suppliers", (t) =>
  namedRootConnection(t, {
    type: SupplierConnectionRef,
    model: "Supplier",
    listed: "The suppliers the buyer is connected to",
    where: (viewer) => related("connections", true, isValue("buyerId", viewer.buyerId)),
  }),
);
