// Attaching and detaching tags (docs/design/decisions.md §3 "Taggings"): the record
// and tag lookups and the statements, around the domain's tagging rules.
import type { Viewer } from "../auth/viewer.js";
import { Prisma, type PrismaClient } from "../db/generated/prisma/client.js";
import {
  type AttachTagsOutcome,
  type DetachTagsOutcome,
  TAGGABLE_RECORDS,
  TAGGABLE_TYPES,
  type TaggableType,
  type TaggingRefusal,
  unknownTagIndexes,
} from "../domain/tagging.js";

/** Attaching or detaching: the buyer's tags `tagIds` on the buyer's record `taggableId`. */
export type TaggingCall<Outcome> = (
  prisma: PrismaClient,
  viewer: Viewer,
  taggableId: string,
  tagIds: string[],
) => Promise<Outcome>;

/**
 * Attaches the buyer's tags to one of the buyer's records (docs/design/decisions.md §3 "Taggings").
 * Already-attached tags are kept and not reported as added.
 */
export const attachTags: TaggingCall<AttachTagsOutcome> = async (prisma, viewer, taggableId, tagIds) => {
  const outcome = await changeTags(prisma, { buyerId: viewer.buyerId, taggableId }, tagIds, insertTaggings);
  if (outcome.kind !== "changed") return outcome;
  return { kind: "attached", taggableType: outcome.taggableType, addedTagIds: outcome.changedTagIds };
};

/**
 * Removes the buyer's tags from one of the buyer's records: the mirror of
 * `attachTags`, with the same checks. Detaching a tag that is not on the
 * record is no error; it is just not reported as removed.
 */
export const detachTags: TaggingCall<DetachTagsOutcome> = async (prisma, viewer, taggableId, tagIds) => {
  const outcome = await changeTags(prisma, { buyerId: viewer.buyerId, taggableId }, tagIds, deleteTaggings);
  if (outcome.kind !== "changed") return outcome;
  return { kind: "detached", taggableType: outcome.taggableType, removedTagIds: outcome.changedTagIds };
};

/** The record a call names, and the buyer making the call. */
interface Taggable {
  buyerId: string;
  taggableId: string;
}

/** A statement changing the taggings of a record; it answers the tags of the rows it changed. */
type TaggingStatement = (
  prisma: PrismaClient,
  taggable: Taggable & { taggableType: TaggableType },
  tagIds: string[],
) => Promise<{ tag_id: string }[]>;

const insertTaggings: TaggingStatement = (prisma, { buyerId, taggableId, taggableType }, tagIds) =>
  prisma.$queryRaw`
    INSERT INTO taggings (tag_id, taggable_type, taggable_id, buyer_id)
    SELECT tag_id, ${taggableType}::"TaggableType", ${taggableId}::uuid, ${buyerId}::uuid
    FROM unnest(${tagIds}::uuid[]) AS tag_id
    ON CONFLICT (taggable_id, tag_id) DO NOTHING
    RETURNING tag_id::text AS tag_id`;

const deleteTaggings: TaggingStatement = (prisma, { buyerId, taggableId }, tagIds) =>
  prisma.$queryRaw`
    DELETE FROM taggings
    WHERE taggable_id = ${taggableId}::uuid AND buyer_id = ${buyerId}::uuid AND tag_id = ANY(${tagIds}::uuid[])
    RETURNING tag_id::text AS tag_id`;

/**
 * The checks attaching and detaching share, then `statement` with the
 * distinct tag ids; the outcome lists the tags it changed in the order the
 * call gave them.
 */
async function changeTags(
  prisma: PrismaClient,
  { buyerId, taggableId }: Taggable,
  tagIds: string[],
  statement: TaggingStatement,
): Promise<{ kind: "changed"; taggableType: TaggableType; changedTagIds: string[] } | TaggingRefusal> {
  const taggableType = await findTaggableType(prisma, buyerId, taggableId);
  if (!taggableType) return { kind: "taggable_not_found" };

  const unknown = unknownTagIndexes(tagIds, await buyerTagIdsAmong(prisma, buyerId, tagIds));
  if (unknown.length > 0) return { kind: "unknown_tags", indexes: unknown };

  const wanted = [...new Set(tagIds)];
  const rows = await statement(prisma, { buyerId, taggableId, taggableType }, wanted);
  const changed = new Set(rows.map((row) => row.tag_id));
  return { kind: "changed", taggableType, changedTagIds: wanted.filter((id) => changed.has(id)) };
}

/** Which of `tagIds` are tags of the buyer. */
async function buyerTagIdsAmong(
  prisma: PrismaClient,
  buyerId: string,
  tagIds: string[],
): Promise<Set<string>> {
  const known = await prisma.tag.findMany({ where: { id: { in: tagIds }, buyerId }, select: { id: true } });
  return new Set(known.map((tag) => tag.id));
}

/** Which of the buyer's record types `id` is, if it is one of the buyer's records at all. */
async function findTaggableType(
  prisma: PrismaClient,
  buyerId: string,
  id: string,
): Promise<TaggableType | null> {
  // Table and column names come from TAGGABLE_RECORDS, never from a request.
  const recordsOfType = TAGGABLE_TYPES.map((type) => {
    const { table, buyerColumn } = TAGGABLE_RECORDS[type];
    return Prisma.sql`SELECT ${type}::text AS type FROM ${Prisma.raw(table)}
      WHERE id = ${id}::uuid AND ${Prisma.raw(buyerColumn)} = ${buyerId}::uuid`;
  });
  const rows = await prisma.$queryRaw<{ type: TaggableType }[]>`
    ${Prisma.join(recordsOfType, " UNION ALL ")} LIMIT 1`;
  return rows[0]?.type ?? null;
}
