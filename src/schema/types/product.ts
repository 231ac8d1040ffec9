// The shared catalogue as a buyer sees it
// (docs/design/decisions.md §10 "Shared catalogue and privacy"). A curated product shows its catalogue name and
// code. A product auto-match created holds no buyer's text, so each buyer sees
// it under the name it gave itself and with no code: the fields leading to it
// fall back to that name (`readsRowWithFallbacks`; matchProduct's candidates,
// `withOwnName`).
import type { Product } from "../../db/generated/prisma/client.js";
import { productName } from "../../domain/product-name.js";
import { builder } from "../builder.js";
import { ProductTypeEnum } from "../enums.js";
import { readsComputed } from "../field-reads.js";

export const ProductRef = builder.prismaObject("Product", {
  description: "A product of the shared catalogue that buyer products are matched to.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The catalogue product's id." }),
    name: t.string({
      description:
        "The catalogue name. A product created by auto-match has none of its own: each buyer sees the name " +
        "it gave (its buyer product's raw material name, or the name matchProduct was asked about).",
      ...readsComputed([["name"], ["casNumber"]], productName),
    }),
    casNumber: t.exposeString("casNumber", {
      nullable: true,
      description: "CAS registry number, e.g. `56-81-5`, when known.",
    }),
    code: t.exposeString("code", {
      nullable: true,
      description: "The catalogue code of a curated product; null for a product created by auto-match.",
    }),
    productType: t.expose("productType", { type: ProductTypeEnum, description: "Kind of product." }),
  }),
});

/**
 * The product under the viewing buyer's own name when the catalogue has none
 * of its own. Never another buyer's text: the catalogue row holds none.
 */
export function withOwnName<Row extends Pick<Product, "name">>(product: Row, ownName: string | null): Row {
  return product.name === null ? { ...product, name: ownName } : product;
}
