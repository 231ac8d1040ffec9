// Claiming due deliveries from the queue (webhook-queue.ts): a claim is a
// lease, taken fairly across endpoints and buyers, and comes back with each
// delivery's event and endpoint.
import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.js";

/** The event a claimed delivery carries: what the receiver gets. */
export interface ClaimedEvent {
  id: string;
  type: string;
  createdAt: Date;
  /** The stored JSON text of `data`. */
  data: string;
}

/** The endpoint a claimed delivery goes to, as it was when claimed. */
export interface ClaimedEndpoint {
  id: string;
  url: string;
  status: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  /** Attempts made before this one. */
  attempts: number;
  claimToken: string;
  event: ClaimedEvent;
  endpoint: ClaimedEndpoint;
}

export interface ClaimSettings {
  leaseMs: number;
  /** Deliveries to one endpoint under lease at once, by every process together. */
  endpointConcurrency: number;
  /** Deliveries to one buyer's endpoints under lease at once, by every process together. */
  buyerConcurrency: number;
}

/**
 * Claims up to `limit` due deliveries for `settings.leaseMs`, fairly: an
 * endpoint (and a buyer) already at its number of deliveries under lease gets
 * none, and the others take turns, each endpoint's oldest first, so that one
 * endpoint's backlog or slowness holds back no other endpoint. A lease that
 * ran out (its process died) makes its delivery due again.
 */
export async function claimDeliveries(
  database: Pick<Database, "query">,
  limit: number,
  settings: ClaimSettings,
): Promise<ClaimedDelivery[]> {
  const claimToken = randomUUID();
  const rows = await database.query<ClaimedRow>(
    CLAIM_DUE_DELIVERIES,
    [claimToken, settings.leaseMs, settings.endpointConcurrency, settings.buyerConcurrency, limit],
    "webhook_claim_and_load_due_deliveries",
  );
  return rows.map((row) => claimedDelivery(row, claimToken));
}

export function claimedDelivery(row: ClaimedRow, claimToken: string): ClaimedDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    attempts: row.attempts,
    claimToken,
    event: { id: row.event_id, type: row.event_type, createdAt: row.event_created_at, data: row.event_data },
    endpoint: {
      id: row.endpoint_id,
      url: row.endpoint_url,
      status: row.endpoint_status,
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    },
  };
}

export interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  event_type: string;
  event_created_at: Date;
  event_data: string;
  endpoint_url: string;
  endpoint_status: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * $1 claim token, $2 lease (ms), $3 endpoint limit, $4 buyer limit, $5 how many;
 * each claimed delivery comes back with its event and its endpoint, so that an
 * attempt needs no read of its own (a statement's joins see the rows as they
 * were when it began, so a delivery deleted meanwhile is still claimed, and
 * its attempt is written as "delivery gone").
 * Each endpoint's room is its limit less its deliveries under lease, capped by
 * its buyer's; its oldest due deliveries, up to that room, are locked and
 * numbered (its turns), and the claim takes every endpoint's first turn, then
 * every second, and so on, within each buyer's room. `excludedLeases` is SQL
 * that leaves out of that count the leases the same statement gives back.
 */
export const claimedCte = (excludedLeases: string) => `
  claimed AS (
    UPDATE webhook_deliveries
    SET status = 'delivering', claim_token = $1::uuid,
        available_at = now() + $2::float8 * interval '1 millisecond', updated_at = now()
    WHERE id IN (
      SELECT id FROM (
        SELECT due.id, due.available_at, due.endpoint_turn, room.buyer_room,
               row_number() OVER (PARTITION BY room.buyer_id ORDER BY due.endpoint_turn, due.available_at)
                 AS buyer_turn
        FROM (
          SELECT endpoint.id AS endpoint_id, endpoint.buyer_id,
                 $3::int - count(leased.id) FILTER (WHERE leased.endpoint_id = endpoint.id) AS endpoint_room,
                 $4::int - count(leased.id) AS buyer_room
          FROM webhook_endpoints endpoint
          LEFT JOIN webhook_deliveries leased
            ON leased.buyer_id = endpoint.buyer_id AND leased.status = 'delivering'${excludedLeases}
          GROUP BY endpoint.id
        ) room
        CROSS JOIN LATERAL (
          SELECT id, available_at, row_number() OVER (ORDER BY available_at) AS endpoint_turn
          FROM (
            SELECT id, available_at FROM webhook_deliveries
            WHERE endpoint_id = room.endpoint_id AND status = 'pending' AND available_at <= now()
            ORDER BY available_at
            LIMIT room.endpoint_room
            FOR UPDATE SKIP LOCKED
          ) locked
        ) due
        WHERE room.endpoint_room > 0 AND room.buyer_room > 0
      ) turns
      WHERE buyer_turn <= buyer_room
      ORDER BY endpoint_turn, available_at
      LIMIT $5::int
    )
    RETURNING id, endpoint_id, event_id, attempts
  )
`;

/** Each claimed delivery with its event and its endpoint. */
const SELECT_CLAIMED = `
  SELECT claimed.id, claimed.endpoint_id, claimed.event_id, claimed.attempts,
         event.type AS event_type, event.created_at AS event_created_at, event.data AS event_data,
         endpoint.url AS endpoint_url, endpoint.status::text AS endpoint_status,
         endpoint.secret_ciphertext, endpoint.previous_secret_ciphertext, endpoint.previous_secret_expires_at
  FROM claimed
  JOIN webhook_events event ON event.id = claimed.event_id
  JOIN webhook_endpoints endpoint ON endpoint.id = claimed.endpoint_id`;

const CLAIM_DUE_DELIVERIES = `WITH ${claimedCte("")} ${SELECT_CLAIMED}`;
