import { builder } from "../builder.js";

export const ApiKeyRef = builder.prismaObject("ApiKey", {
  description:
    "An API key of the buyer. The key itself is never shown again after it is issued; its prefix tells keys apart.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The key's id." }),
    prefix: t.exposeString("prefix", {
      description: "The first characters of the key, e.g. `bpk_AbCdEfGh`.",
    }),
    name: t.exposeString("name", { nullable: true, description: "The name the operator gave the key." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the key was issued." }),
    lastUsedAt: t.expose("lastUsedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the key was last used, to the minute; null if never.",
    }),
  }),
});
