// The one shape of a root field that reads one of the buyer's records by id:
// its `id` argument (a UUID or the record's global ID), null for a record
// that is not the buyer's, and the read declared for the planned reads.
import type { Viewer } from "../auth/viewer.js";
import type PrismaTypes from "../db/generated/pothos-types.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { SchemaTypes } from "./builder.js";
import { allOf, hasId, isValue, type RecordIds } from "./conditions.js";
import { takesIdsOf } from "./global-ids.js";
import { recordByIdExtension } from "./read-metadata.js";
import { requireViewer } from "./require-viewer.js";

/** The models whose records carry the buyer's id in `buyerId` and take global IDs. */
type BuyerRecordModel = "Order" | "BuyerProduct" | "BuyerProductApproval";

type Query<Model extends BuyerRecordModel> = {
  include?: PrismaTypes[Model]["Include"];
  select?: PrismaTypes[Model]["Select"];
};

export interface BuyerRecordFieldOptions<Model extends BuyerRecordModel> {
  model: Model;
  description: string;
  /** The `id` argument's description. */
  idDescription: string;
  /** Prisma's `findFirst` of the model, with the field's selection and the buyer's `where`. */
  findFirst: (
    prisma: PrismaClient,
    query: Query<Model> & { where: object },
  ) => Promise<PrismaTypes[Model]["Shape"] | null>;
}

const ofViewer = (ids: RecordIds, viewer: Viewer) => allOf([hasId(ids), isValue("buyerId", viewer.buyerId)]);

/** A root field answering one of the buyer's records of `model` by its id or global ID; null for any other id. */
export function buyerRecordField<Model extends BuyerRecordModel>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { model, description, idDescription, findFirst }: BuyerRecordFieldOptions<Model>,
) {
  return t.prismaField({
    type: model,
    nullable: true,
    description,
    args: {
      id: t.arg({ type: "UUID", required: true, description: idDescription, extensions: takesIdsOf(model) }),
    },
    extensions: recordByIdExtension(model, ofViewer),
    // `findFirst` is typed at the call, for its model: Pothos cannot name the shape of a model given as a type parameter.
    resolve: (query, _root, { id }, context) =>
      findFirst(context.prisma, { ...query, where: ofViewer(id, requireViewer(context)) }) as never,
  });
}
