import type { Viewer } from "../../auth/viewer.js";
import { builder } from "../builder.js";
import { executedReadExtension } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";
import "./api-key.js";
import "./buyer.js";

const ViewerRef = builder.objectRef<Viewer>("Viewer").implement({
  description: "Who is calling: the buyer of the API key, and the key.",
  fields: (t) => ({
    buyer: t.prismaField({
      type: "Buyer",
      description: "The buyer every query and change is scoped to.",
      resolve: (query, viewer, _args, context) =>
        context.prisma.buyer.findUniqueOrThrow({ ...query, where: { id: viewer.buyerId } }),
    }),
    apiKey: t.prismaField({
      type: "ApiKey",
      description: "The API key of this request.",
      resolve: (query, viewer, _args, context) =>
        context.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: viewer.apiKeyId } }),
    }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    description: "The buyer and API key of this request.",
    extensions: executedReadExtension(
      "it answers the request's own key and buyer, not a list or a record by id",
    ),
    resolve: (_root, _args, context) => requireViewer(context),
  }),
);
