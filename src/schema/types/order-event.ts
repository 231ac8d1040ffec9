import { builder } from "../builder.js";
import { connectionType } from "../connection-types.js";
import { graphqlEnumName } from "../enums.js";
import { readsComputed } from "../field-reads.js";

export interface OrderFieldChangeShape {
  field: string;
  from: unknown;
  to: unknown;
}

const snakeToCamel = (name: string) =>
  name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * Events store changes in the contract's spelling (`order_status`,
 * `quote_selected`); GraphQL clients read the field names and enum values they
 * use everywhere else (`orderStatus`, `QUOTE_SELECTED`).
 */
export function graphqlChanges(stored: unknown): OrderFieldChangeShape[] {
  if (typeof stored !== "object" || stored === null) return [];
  return Object.entries(stored as Record<string, { from?: unknown; to?: unknown }>).map(
    ([column, change]) => {
      const spell = (value: unknown) =>
        column === "order_status" && typeof value === "string" ? graphqlEnumName(value) : (value ?? null);
      return { field: snakeToCamel(column), from: spell(change.from), to: spell(change.to) };
    },
  );
}

const OrderFieldChangeRef = builder.objectRef<OrderFieldChangeShape>("OrderFieldChange").implement({
  description: "One field of an order changed by an update.",
  fields: (t) => ({
    field: t.exposeString("field", {
      description:
        "The Order field that changed: orderStatus, purchaseOrderReference, supplierOrderReference, placedAt or resourceValues.",
    }),
    from: t.expose("from", {
      type: "JSON",
      nullable: true,
      description: "The value before, as the Order field returns it (enum names, ISO date-times).",
    }),
    to: t.expose("to", {
      type: "JSON",
      nullable: true,
      description: "The value after, as the Order field returns it.",
    }),
  }),
});

export const OrderEventRef = builder.prismaObject("OrderEvent", {
  description: "One recorded change of an order: who made it, when, and which fields went from what to what.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The event's id." }),
    orderId: t.expose("orderId", { type: "UUID", description: "The order that changed." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the change was made." }),
    actor: t.exposeString("actor", { description: "Who made the change, e.g. `api_key:<id>`." }),
    apiKeyId: t.expose("apiKeyId", {
      type: "UUID",
      nullable: true,
      description: "The API key the change was made with; null once that key is deleted.",
    }),
    apiKey: t.relation("apiKey", {
      nullable: true,
      description: "The API key the change was made with (its prefix and name tell who); null once deleted.",
    }),
    changes: t.field({
      type: [OrderFieldChangeRef],
      description: "The fields this change touched.",
      ...readsComputed([["changes"]], graphqlChanges),
    }),
  }),
});

export const OrderEventConnectionRef = connectionType(
  "OrderEvent",
  OrderEventRef,
  "A page of an order's events, newest first.",
);
