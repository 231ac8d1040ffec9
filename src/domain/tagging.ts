import type { Viewer } from "../auth/viewer.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { TaggableType } from "../db/generated/prisma/enums.js";

export const MAX_TAGS_PER_CALL = 100;

export type AttachTagsOutcome =
  | { kind: "attached"; taggableType: TaggableType; addedTagIds: string[] }
  | { kind: "taggable_not_found" }
  | { kind: "unknown_tags"; indexes: number[] };

/**
 * Attaches the buyer's tags to one of the buyer's records (docs/decisions.md §3 "Taggings").
 * Already-attached tags are kept and not reported as added.
 */
export async function attachTags(
  prisma: PrismaClient,
  viewer: Viewer,
  taggableId: string,
  tagIds: string[],
): Promise<AttachTagsOutcome> {
  const taggableType = await findTaggableType(prisma, viewer.buyerId, taggableId);
  if (!taggableType) return { kind: "taggable_not_found" };

  const unknown = await unknownTagIndexes(prisma, viewer.buyerId, tagIds);
  if (unknown.length > 0) return { kind: "unknown_tags", indexes: unknown };

  const wanted = [...new Set(tagIds)];
  const inserted = await prisma.$queryRaw<{ tag_id: string }[]>`
    INSERT INTO taggings (tag_id, taggable_type, taggable_id, buyer_id)
    SELECT tag_id, ${taggableType}::"TaggableType", ${taggableId}::uuid, ${viewer.buyerId}::uuid
    FROM unnest(${wanted}::uuid[]) AS tag_id
    ON CONFLICT (taggable_id, tag_id) DO NOTHING
    RETURNING tag_id::text AS tag_id`;
  const added = new Set(inserted.map((row) => row.tag_id));
  return { kind: "attached", taggableType, addedTagIds: wanted.filter((id) => added.has(id)) };
}

/** Positions in `tagIds` of ids that are not tags of the buyer. */
async function unknownTagIndexes(prisma: PrismaClient, buyerId: string, tagIds: string[]): Promise<number[]> {
  const known = await prisma.tag.findMany({ where: { id: { in: tagIds }, buyerId }, select: { id: true } });
  const knownIds = new Set(known.map((tag) => tag.id));
  return tagIds.flatMap((id, index) => (knownIds.has(id) ? [] : [index]));
}

/** Which of the buyer's record types `id` is, if it is one of the buyer's records at all. */
async function findTaggableType(
  prisma: PrismaClient,
  buyerId: string,
  id: string,
): Promise<TaggableType | null> {
  const rows = await prisma.$queryRaw<{ type: TaggableType }[]>`
    SELECT 'BuyerProduct' AS type FROM buyer_products WHERE id = ${id}::uuid AND buyer_id = ${buyerId}::uuid
    UNION ALL SELECT 'Order' FROM orders WHERE id = ${id}::uuid AND buyer_id = ${buyerId}::uuid
    UNION ALL SELECT 'BuyerProductApproval' FROM buyer_product_approvals
      WHERE id = ${id}::uuid AND buyer_id = ${buyerId}::uuid
    UNION ALL SELECT 'SupplierUser' FROM supplier_users
      WHERE id = ${id}::uuid AND created_by_buyer_id = ${buyerId}::uuid
    LIMIT 1`;
  return rows[0]?.type ?? null;
}

export type DetachTagsOutcome =
  | { kind: "detached"; taggableType: TaggableType; removedTagIds: string[] }
  | { kind: "taggable_not_found" }
  | { kind: "unknown_tags"; indexes: number[] };

/**
 * Removes the buyer's tags from one of the buyer's records: the mirror of
 * `attachTags`, with the same checks. Detaching a tag that is not on the
 * record is no error; it is just not reported as removed.
 */
export async function detachTags(
  prisma: PrismaClient,
  viewer: Viewer,
  taggableId: string,
  tagIds: string[],
): Promise<DetachTagsOutcome> {
  const taggableType = await findTaggableType(prisma, viewer.buyerId, taggableId);
  if (!taggableType) return { kind: "taggable_not_found" };

  const unknown = await unknownTagIndexes(prisma, viewer.buyerId, tagIds);
  if (unknown.length > 0) return { kind: "unknown_tags", indexes: unknown };

  const wanted = [...new Set(tagIds)];
  const deleted = await prisma.$queryRaw<{ tag_id: string }[]>`
    DELETE FROM taggings
    WHERE taggable_id = ${taggableId}::uuid AND buyer_id = ${viewer.buyerId}::uuid
      AND tag_id = ANY(${wanted}::uuid[])
    RETURNING tag_id::text AS tag_id`;
  const removed = new Set(deleted.map((row) => row.tag_id));
  return { kind: "detached", taggableType, removedTagIds: wanted.filter((id) => removed.has(id)) };
}
