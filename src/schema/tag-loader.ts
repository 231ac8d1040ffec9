import { batchLoad } from "./batch.js";
import type { GraphQLContext } from "./context.js";
import { requireViewer } from "./require-viewer.js";

function loadTags(context: GraphQLContext, ids: string[]) {
  return context.prisma.tagging.findMany({
    where: { buyerId: requireViewer(context).buyerId, taggableId: { in: ids } },
    // A tag's group is loaded by plugin-prisma, for the tags of all the rows together, when it is selected.
    select: { taggableId: true, tag: true },
    orderBy: [{ tag: { name: "asc" } }, { tagId: "asc" }],
  });
}

type TagRow = Awaited<ReturnType<typeof loadTags>>[number]["tag"];

/**
 * The buyer's tags on one of its records, by name. Taggings point at records
 * by id and type only, with no foreign key Prisma could join through, so the
 * tags of all the records of a list are loaded together in one query.
 */
export async function tagsOf(context: GraphQLContext, taggableId: string): Promise<TagRow[]> {
  const tags = await batchLoad(context, "tags", taggableId, async (ids) => {
    const byRecord = new Map<string, TagRow[]>();
    for (const row of await loadTags(context, ids)) {
      byRecord.set(row.taggableId, [...(byRecord.get(row.taggableId) ?? []), row.tag]);
    }
    return byRecord;
  });
  return tags ?? [];
}
