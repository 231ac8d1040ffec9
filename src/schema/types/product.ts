import { builder } from "../builder.js";
import { ProductTypeEnum } from "../enums.js";

export const ProductRef = builder.prismaObject("Product", {
  description: "A product of the shared catalogue that buyer products are matched to.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The catalogue product's id." }),
    name: t.exposeString("name", { description: "The catalogue name." }),
    casNumber: t.exposeString("casNumber", {
      nullable: true,
      description: "CAS registry number, e.g. `56-81-5`, when known.",
    }),
    code: t.exposeString("code", { nullable: true, description: "The catalogue code, when there is one." }),
    productType: t.expose("productType", { type: ProductTypeEnum, description: "Kind of product." }),
  }),
});
