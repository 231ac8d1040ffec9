// A root field reading one of the buyer's rows by its UUID, for the records
// that are not Nodes (webhook endpoints and events): no global IDs
// (src/schema/record-field.ts is the field of the Node records). Its
// condition is declared once, for its resolver and its planned read.
import type { Viewer } from "../auth/viewer.js";
import type PrismaTypes from "../db/generated/pothos-types.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { SchemaTypes } from "./builder.js";
import { allOf, hasId, isValue, type RecordIds } from "./conditions.js";
import type { RecordQuery } from "./mutation-pair.js";
import { recordByIdExtension } from "./read-metadata.js";
import { requireViewer } from "./require-viewer.js";

/** The models whose rows carry the buyer's id in `buyerId` and are read by UUID only. */
type BuyerRowModel = "WebhookEndpoint" | "WebhookEvent";

export interface BuyerRowFieldOptions<Model extends BuyerRowModel> {
  model: Model;
  description: string;
  /** The `id` argument's description. */
  idDescription: string;
  /** Prisma's `findFirst` of the model, with the field's selection and the buyer's `where`. */
  findFirst: (
    prisma: PrismaClient,
    query: RecordQuery<Model> & { where: object },
  ) => Promise<PrismaTypes[Model]["Shape"] | null>;
}

const ofViewer = (ids: RecordIds, viewer: Viewer) => allOf([hasId(ids), isValue("buyerId", viewer.buyerId)]);

/** A root field answering one of the buyer's rows of `model` by its UUID; null for any other id. */
export function buyerRowField<Model extends BuyerRowModel>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { model, description, idDescription, findFirst }: BuyerRowFieldOptions<Model>,
) {
  return t.prismaField({
    type: model,
    nullable: true,
    description,
    args: { id: t.arg({ type: "UUID", required: true, description: idDescription }) },
    extensions: recordByIdExtension(model, ofViewer),
    // `findFirst` is typed at the call, for its model: Pothos cannot name the shape of a model given as a type parameter.
    resolve: (query, _root, { id }, context) =>
      findFirst(context.prisma, { ...query, where: ofViewer(id, requireViewer(context)) }) as never,
  });
}
