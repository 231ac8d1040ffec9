import {
  ApprovalStatus,
  ContainerType,
  DocumentType,
  MeasurementUnit,
  OrderStatus,
  PriceType,
  ProductType,
} from "../db/generated/prisma/enums.js";
import { contractSpelling } from "../domain/contract-vocabulary.js";
import { builder } from "./builder.js";
import { graphqlEnumName } from "./enum-names.js";

export { graphqlEnumName };

/**
 * A GraphQL enum of values the database stores in the contract's spelling (a
 * Prisma enum, or a column's fixed list of values): GraphQL names follow
 * GraphQL naming, and each value records the contract's spelling in
 * `extensions.contractValue`, which the REST adapter uses to speak the
 * contract's spelling on the wire.
 */
export function contractEnum<Value extends string>(
  name: string,
  values: Readonly<Record<string, Value>> | readonly Value[],
  description: string,
  valueDescriptions: Partial<Record<Value, string>> = {},
) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      Object.values(values).map((value) => {
        const contractValue = contractSpelling(value);
        return [
          graphqlEnumName(contractValue),
          {
            value,
            description: valueDescriptions[value] ?? `\`${contractValue}\` in the REST API.`,
            extensions: { contractValue },
          },
        ];
      }),
    ) as Record<string, { value: Value }>,
  });
}

export const MeasurementUnitEnum = contractEnum(
  "MeasurementUnit",
  MeasurementUnit,
  "The unit a buyer product is purchased in.",
);
export const ProductTypeEnum = contractEnum("ProductType", ProductType, "The kind of product.");
export const ContainerTypeEnum = contractEnum(
  "ContainerType",
  ContainerType,
  "The typical pack a product is bought in.",
);
export const DocumentTypeEnum = contractEnum(
  "DocumentType",
  DocumentType,
  "A document that can be required for a product.",
);
export const PriceTypeEnum = contractEnum("PriceType", PriceType, "How an order was priced.");
export const OrderStatusEnum = contractEnum(
  "OrderStatus",
  OrderStatus,
  "Where an order is. Stages move forward only: QUOTE_SELECTED, ORDER_PLACED, ORDER_CONFIRMED, then the logistics stages (SHIPPED, IN_TRANSIT, IN_PORT, IN_WAREHOUSE in any order), then DELIVERED.",
);
export const ApprovalStatusEnum = contractEnum(
  "ApprovalStatus",
  ApprovalStatus,
  "Where the approval of a supplier's material for a buyer product stands.",
);
