// When an API key was last used, as admission stamps it.
import type { PrismaClient } from "./generated/prisma/client.js";

/** Sets the key's `last_used_at` to `at`. */
export async function stampLastUsed(
  prisma: Pick<PrismaClient, "apiKey">,
  apiKeyId: string,
  at: Date,
): Promise<void> {
  await prisma.apiKey.update({ where: { id: apiKeyId }, data: { lastUsedAt: at }, select: { id: true } });
}
