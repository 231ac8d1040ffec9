import { batchLoad } from "./batch.js";
import type { GraphQLContext } from "./context.js";
import { requireViewer } from "./require-viewer.js";

// Taggings point at records by id and type only, with no foreign key Prisma
// could join through, so what the records of a list (or of a batch of events)
// need of their taggings is loaded for all of them together, in one query.
// A record's tags are declared as keyed rows instead (src/schema/types/tag.ts).

/** Each tagged record's rows, in the rows' order. */
function byRecord<Row extends { taggableId: string }>(rows: readonly Row[]): Map<string, Row[]> {
  const grouped = new Map<string, Row[]>();
  for (const row of rows) {
    const values = grouped.get(row.taggableId);
    if (values) values.push(row);
    else grouped.set(row.taggableId, [row]);
  }
  return grouped;
}

function loadTaggings(context: GraphQLContext, ids: string[]) {
  return context.prisma.tagging.findMany({
    where: { buyerId: requireViewer(context).buyerId, taggableId: { in: ids } },
    select: { tagId: true, taggableType: true, taggableId: true, createdAt: true },
    orderBy: { tagId: "asc" },
  });
}

type TaggingRow = Awaited<ReturnType<typeof loadTaggings>>[number];

/** The buyer's taggings of one of its records, by tag id. */
export async function taggingsOf(context: GraphQLContext, taggableId: string): Promise<TaggingRow[]> {
  const taggings = await batchLoad(context, "taggings", taggableId, async (ids) =>
    byRecord(await loadTaggings(context, ids)),
  );
  return taggings ?? [];
}
