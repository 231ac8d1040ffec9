// Giving back the leases of processes that died mid-delivery (webhook-queue.ts).
import type { Database } from "../db/database.js";

/**
 * Makes every delivery whose lease ran out (its process died) pending again,
 * to be claimed like any other; returns how many.
 */
export async function releaseExpiredLeases(database: Pick<Database, "query">): Promise<number> {
  const rows = await database.query<{ id: string }>(
    RELEASE_EXPIRED_LEASES,
    [],
    "webhook_release_expired_leases_returning",
  );
  return rows.length;
}

/** A delivery whose lease ran out is pending again, to be claimed like any other. */
const RELEASE_EXPIRED_LEASES = `
  UPDATE webhook_deliveries SET status = 'pending', claim_token = NULL, updated_at = now()
  WHERE status = 'delivering' AND available_at <= now()
  RETURNING id`;
