import type { Viewer } from "../../auth/viewer.js";
import { builder } from "../builder.js";
import { hasId } from "../conditions.js";
import { type ViewerRead, viewerReadExtension } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";
import "./api-key.js";
import "./buyer.js";

// The records of the request's viewer, each read by its condition here: by
// the fields' resolvers and by the planned reads (src/schema/planner/viewer-read.ts).
const OWN_RECORDS = {
  buyer: { model: "Buyer", where: (viewer: Viewer) => hasId(viewer.buyerId) },
  apiKey: { model: "ApiKey", where: (viewer: Viewer) => hasId(viewer.apiKeyId) },
} as const satisfies ViewerRead["records"];

const ViewerRef = builder.objectRef<Viewer>("Viewer").implement({
  description: "Who is calling: the buyer of the API key, and the key.",
  fields: (t) => ({
    buyer: t.prismaField({
      type: OWN_RECORDS.buyer.model,
      description: "The buyer every query and change is scoped to.",
      resolve: (query, viewer, _args, context) =>
        context.prisma.buyer.findFirstOrThrow({ ...query, where: OWN_RECORDS.buyer.where(viewer) }),
    }),
    apiKey: t.prismaField({
      type: OWN_RECORDS.apiKey.model,
      description: "The API key of this request.",
      resolve: (query, viewer, _args, context) =>
        context.prisma.apiKey.findFirstOrThrow({ ...query, where: OWN_RECORDS.apiKey.where(viewer) }),
    }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    description: "The buyer and API key of this request.",
    extensions: viewerReadExtension({ records: OWN_RECORDS }),
    resolve: (_root, _args, context) => requireViewer(context),
  }),
);
