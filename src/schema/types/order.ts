import { OrderStatus } from "../../db/generated/prisma/enums.js";
import { nextOrderStatuses } from "../../domain/order-status.js";
import { builder } from "../builder.js";
import { isValue, ordered, textMatches } from "../conditions.js";
import { relationConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import { OrderStatusEnum, PriceTypeEnum } from "../enums.js";
import { orNull } from "../field-options.js";
import {
  readsComputed,
  readsObject,
  readsPath,
  readsRowWithFallbacks,
  readsText,
  rows,
} from "../field-reads.js";
import { dayFilter, enumFilter, idFilter, listFilters, textFilter } from "../list-filters.js";
import { buyerRecordField } from "../record-field.js";
import { searchableRootConnection } from "../searchable-list.js";
import { byOptionalText, type SortKey } from "../sort-keys.js";
import { OrderEventConnectionRef } from "./order-event.js";
import { ProductRef } from "./product.js";
import { ResourceValueRef } from "./resource-value.js";
import "./supplier.js";
import "./order-update.js";
import { NodeRef, nodeIdFields } from "./node.js";

// A UUID no row has, for selections that need a buyer when there is none.
const NO_BUYER = "00000000-0000-0000-0000-000000000000";

builder.prismaObject("OrderType", {
  description: "Whether an order is local or from overseas.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The order type's id." }),
    typeOf: t.exposeString("typeOf", {
      description: "The kind of order, for example `local` or `overseas`.",
    }),
  }),
});

const AddressRef = builder
  .objectRef<{
    street: string;
    city: string;
    state: string;
    postcode: string;
    country: string;
    fullAddress: string;
  }>("Address")
  .implement({
    description: "A postal address.",
    fields: (t) => ({
      street: t.exposeString("street", { description: "Street and number." }),
      city: t.exposeString("city", { description: "City or suburb." }),
      state: t.exposeString("state", { description: "State or region." }),
      postcode: t.exposeString("postcode", { description: "Postal code." }),
      country: t.exposeString("country", { description: "Country." }),
      fullAddress: t.exposeString("fullAddress", { description: "The whole address on one line." }),
    }),
  });

builder.prismaObject("DeliverySite", {
  description: "A site of the buyer where orders are delivered.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The site's id." }),
    siteName: t.exposeString("siteName", { description: "The site's name." }),
    address: t.field({
      type: AddressRef,
      description: "Where the site is.",
      ...readsObject({
        street: ["addressStreet"],
        city: ["addressCity"],
        state: ["addressState"],
        postcode: ["addressPostcode"],
        country: ["addressCountry"],
        fullAddress: ["addressFullAddress"],
      }),
    }),
  }),
});

const OrderAdditionalDataRef = builder
  .objectRef<{ productName: string | null; supplierName: string }>("OrderAdditionalData")
  .implement({
    description: "Names that save a client a lookup.",
    fields: (t) => ({
      product: t.field({
        type: builder.objectRef<{ productName: string | null }>("OrderProductSummary").implement({
          description: "The ordered product as the buyer names it.",
          fields: (u) => ({
            buyerProductDisplayName: u.exposeString("productName", {
              nullable: true,
              description: "The buyer product's raw material name.",
            }),
          }),
        }),
        description: "The ordered product.",
        ...readsPath(),
      }),
      supplier: t.field({
        type: builder.objectRef<{ supplierName: string }>("OrderSupplierSummary").implement({
          description: "The supplier of the order.",
          fields: (u) => ({
            supplierName: u.exposeString("supplierName", { description: "The supplier's name." }),
          }),
        }),
        description: "The supplier.",
        ...readsPath(),
      }),
    }),
  });

export const OrderRef = builder.prismaObject("Order", {
  interfaces: [NodeRef],
  description: "An order the buyer placed with a supplier.",
  fields: (t) => ({
    url: t.string({
      description: "Link to the order in the web application.",
      ...readsText({ context: "appBaseUrl" }, "/orders/", { path: ["id"] }),
    }),
    supplierProfileId: t.expose("supplierId", { type: "UUID", description: "The supplier's id." }),
    buyerProductApprovalId: t.expose("buyerProductApprovalId", {
      type: "UUID",
      description: "The approval the order was placed under.",
    }),
    priceType: t.expose("priceType", { type: PriceTypeEnum, description: "How the order was priced." }),
    quantity: t.expose("quantity", { type: "Decimal", description: "Number of packs ordered." }),
    pricePerUom: t.expose("pricePerUom", { type: "Decimal", description: "Price per unit of measure." }),
    taxAmount: t.expose("taxAmount", { type: "Decimal", description: "Tax on the order." }),
    taxPercentage: t.expose("taxPercentage", { type: "Decimal", description: "Tax rate in percent." }),
    priceTotal: t.expose("priceTotal", { type: "Decimal", description: "Total price of the order." }),
    currency: t.exposeString("currency", { description: "ISO 4217 currency code of the amounts." }),
    orderReference: t.exposeString("orderReference", orNull("Reference assigned by the service.")),
    orderStatus: t.expose("orderStatus", { type: OrderStatusEnum, description: "Where the order is." }),
    purchaseOrderReference: t.exposeString(
      "purchaseOrderReference",
      orNull("The buyer's purchase order reference."),
    ),
    supplierOrderReference: t.exposeString(
      "supplierOrderReference",
      orNull("The supplier's order reference."),
    ),
    orderType: t.relation("orderType", { description: "Local or overseas." }),
    trackingType: t.exposeString("trackingType", orNull("How the delivery is tracked.")),
    placedAt: t.expose("placedAt", { type: "DateTime", ...orNull("When the order was placed.") }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the order was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the order last changed." }),
    deliverySite: t.relation("deliverySite", { description: "Where the order is delivered." }),
    supplier: t.relation("supplier", { description: "The supplier the order is placed with." }),
    approval: t.relation("approval", { description: "The approval the order was placed under." }),
  }),
});

nodeIdFields("Order");

// Fields read from related rows or worked out from columns.
builder.prismaObjectFields("Order", (t) => ({
  profileConnectionRelationship: t.string({
    nullable: true,
    description: "How the buyer is connected to the supplier.",
    ...readsPath(
      "supplier",
      rows("connections", {
        where: ({ viewer }) => isValue("buyerId", viewer?.buyerId ?? NO_BUYER),
        take: 1,
      }),
      0,
      "relationship",
    ),
  }),
  allowedNextStatuses: t.field({
    type: [OrderStatusEnum],
    description:
      "The statuses updateOrder may move the order to now, in the order of the OrderStatus enum; empty once it is DELIVERED. " +
      "Setting the current status again is always accepted and changes nothing.",
    ...readsComputed([["orderStatus"]], nextOrderStatuses),
  }),
  resourceValues: t.field({
    type: [ResourceValueRef],
    description: "Identifiers of the order in external systems, in the order they were given.",
    ...readsPath(
      rows("resourceValues", { orderBy: ordered(["position", "asc"]), columns: ["provider", "value"] }),
    ),
  }),
  additionalData: t.field({
    type: OrderAdditionalDataRef,
    description: "Product and supplier names.",
    ...readsObject({
      productName: ["approval", "buyerProduct", "rawMaterialName"],
      supplierName: ["supplier", "name"],
    }),
  }),
  product: t.field({
    type: ProductRef,
    description: "The catalogue product ordered (the buyer product's match).",
    ...readsRowWithFallbacks(["approval", "buyerProduct", "product"], {
      name: ["approval", "buyerProduct", "rawMaterialName"],
    }),
  }),
  events: relationConnection(t, {
    type: OrderEventConnectionRef,
    relation: "events",
    description: "Every change made to the order through the API, newest first.",
  }),
}));

builder.queryField("order", (t) =>
  buyerRecordField(t, {
    model: "Order",
    description: "One of the buyer's orders; null when the buyer has no order with this id.",
    idDescription: "The order's id or global ID.",
    findFirst: (prisma, query) => prisma.order.findFirst(query),
  }),
);

export const OrderConnectionRef = connectionType(
  "Order",
  OrderRef,
  "A page of orders, in the order of the field that answers it.",
);

/** The orders' own sort keys. */
const ORDER_SORT_KEYS: Record<string, SortKey> = {
  PLACED_AT: {
    field: "placedAt",
    kind: "time",
    nullable: true,
    direction: "desc",
    description: "Time placed, newest first; orders not placed yet come before every placed order.",
  },
  ORDER_REFERENCE: byOptionalText("orderReference", "The service's order reference", "orders"),
  PURCHASE_ORDER_REFERENCE: byOptionalText(
    "purchaseOrderReference",
    "The buyer's purchase order reference",
    "orders",
  ),
  PRICE_TOTAL: {
    field: "priceTotal",
    kind: "decimal",
    nullable: false,
    direction: "desc",
    description: "Total price, highest first (amounts compared as numbers, whatever the currency).",
  },
};

const REFERENCES = ["orderReference", "purchaseOrderReference"];

/** The orders' `filter` and `query:` keys; docs/reference/graphql.md, "Searching with query", lists the same keys. */
export const ORDER_FILTERS = listFilters({
  input: {
    name: "OrderFilter",
    description: "Narrows a list of orders. Dates are whole UTC days, both ends included.",
  },
  filters: [
    textFilter(REFERENCES, {
      name: "reference",
      description: "order or purchase order reference: `PO-1*` a prefix (any case), `PO-17` exact",
    }),
    idFilter("supplierId", "Supplier", {
      field: {
        name: "supplierId",
        description: "Only orders placed with one of these suppliers (ids or global IDs).",
      },
      key: { name: "supplier", description: "supplier id(s), comma separated" },
    }),
    enumFilter("orderStatus", {
      type: OrderStatusEnum,
      stored: Object.values(OrderStatus),
      field: {
        name: "orderStatus",
        description: "Only orders with one of these statuses.",
        rest: {
          description:
            "Repeat it for several: `order_status[]=order_placed&order_status[]=in_transit`. `order_status=order_placed,in_transit` is accepted too.",
          example: ["order_placed", "in_transit"],
        },
      },
      key: {
        name: "status",
        description: "status(es), comma separated, as REST or GraphQL spells them: `shipped`, `IN_TRANSIT`",
      },
    }),
    dayFilter("placedAt", {
      from: { name: "placedAtFrom", description: "Only orders placed on or after this day." },
      to: { name: "placedAtTo", description: "Only orders placed on or before this day." },
      key: {
        name: "placed",
        description: "day placed: `2025-01-31`, `2025-01-01..2025-01-31`, `2025-01-01..`",
      },
    }),
    dayFilter("createdAt", {
      from: {
        name: "createdAtFrom",
        description: "Only orders created on or after this day.",
        rest: { description: "`YYYY-MM-DD`, a whole UTC day.", example: "2025-01-01" },
      },
      to: {
        name: "createdAtTo",
        description: "Only orders created on or before this day.",
        rest: {
          description: "`YYYY-MM-DD`, a whole UTC day; not before `created_at_from`.",
          example: "2025-03-31",
        },
      },
      key: { name: "created", description: "day created, as for placed" },
    }),
  ],
  word: (word) => textMatches(REFERENCES, word.endsWith("*") ? word : `${word}*`),
});

builder.queryField("orders", (t) =>
  searchableRootConnection(t, {
    type: OrderConnectionRef,
    model: "Order",
    sortKeys: ORDER_SORT_KEYS,
    listed: "The buyer's orders",
    filters: ORDER_FILTERS,
    example: "reference:PO-1* status:shipped,delivered",
    bareWord: "A bare word is `reference:` with that word as a prefix.",
  }),
);
