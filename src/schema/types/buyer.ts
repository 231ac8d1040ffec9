import { builder } from "../builder.js";

export const BuyerRef = builder.prismaObject("Buyer", {
  description: "The buyer organisation an API key belongs to.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The buyer's id." }),
    name: t.exposeString("name", { description: "The buyer's name." }),
  }),
});
