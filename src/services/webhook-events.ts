// What the webhook worker has yet to do, read from the database.
import type { PrismaClient } from "../db/generated/prisma/client.js";

/** Change log entries waiting to be rendered into events (docs/reference/webhooks.md, "Where events come from"). */
export function countUnrenderedChanges(prisma: Pick<PrismaClient, "changeLogUnrendered">): Promise<number> {
  return prisma.changeLogUnrendered.count();
}
