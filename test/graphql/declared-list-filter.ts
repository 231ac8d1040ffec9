// A list filter declared here only, on orders, by the tests of one declaration
// driving every description of it. Imported, not copied: a declaration
// registers its input type once in the schema builder.
import { OrderStatus } from "../../src/db/generated/prisma/enums.js";
import { containsWord } from "../../src/schema/conditions.js";
import { OrderStatusEnum } from "../../src/schema/enums.js";
import {
  dayFilter,
  enumFilter,
  hasRelatedFilter,
  idFilter,
  listFilters,
  textFilter,
} from "../../src/schema/list-filters.js";
import "../../src/schema/index.js";

export const TEST_FILTERS = listFilters({
  input: { name: "DeclaredOnlyInATestFilter", description: "A list filter declared by a test." },
  filters: [
    textFilter(["supplierOrderReference"], { name: "theirs", description: "the supplier's reference" }),
    dayFilter("updatedAt", {
      from: {
        name: "updatedAtFrom",
        description: "Only orders updated on or after this day.",
        rest: { description: "`YYYY-MM-DD`.", example: "2025-03-02" },
      },
      to: { name: "updatedAtTo", description: "Only orders updated on or before this day." },
      key: { name: "updated", description: "day updated" },
    }),
    enumFilter("orderStatus", {
      type: OrderStatusEnum,
      stored: Object.values(OrderStatus),
      field: { name: "statusAmong", description: "Only orders in one of these statuses.", rest: {} },
      key: { name: "state", description: "status(es)" },
    }),
    idFilter("supplierId", "Supplier", { key: { name: "by", description: "supplier id(s)" } }),
    hasRelatedFilter("events", {
      field: { name: "hasEvents", description: "Only orders with events (true) or without (false)." },
    }),
  ],
  word: containsWord("purchaseOrderReference"),
});

/** A March 2025 day, at 09:00 UTC. */
export const marchDay = (date: number) => new Date(Date.UTC(2025, 2, date, 9));
