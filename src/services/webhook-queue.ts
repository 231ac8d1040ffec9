// The webhook delivery queue: rows of `webhook_deliveries` in PostgreSQL (or
// PGlite), shared by every server process. A process claims due rows with
// FOR UPDATE SKIP LOCKED, so each delivery is attempted by one process at a
// time; a claim is a lease (`available_at` moves to its end), so a process
// that dies mid-delivery only delays it: once the lease runs out another
// process claims it again. Nothing is lost, and an attempt's result is
// written only by the claim that made it.
import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { retryDelayMs } from "../domain/webhook-retries.js";

/** NOTIFY'd when deliveries are queued, so idle workers start at once instead of at their next poll. */
export const WEBHOOK_WORK_CHANNEL = "webhook_work";

export interface QueueSettings {
  retryScheduleMs: readonly number[];
  retryJitter: number;
  leaseMs: number;
  disableFailingAfterMs: number;
}

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

type Transaction = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Queues `eventId` to each endpoint, inside the caller's transaction; workers hear of it on commit. */
export async function queueDeliveries(
  tx: Transaction,
  delivery: { buyerId: string; eventId: string; endpointIds: readonly string[] },
): Promise<string[]> {
  return queueEventDeliveries(tx, [delivery]);
}

/** `queueDeliveries` for several events at once: one insert, one notification. */
export async function queueEventDeliveries(
  tx: Transaction,
  deliveries: readonly { buyerId: string; eventId: string; endpointIds: readonly string[] }[],
): Promise<string[]> {
  const rows = deliveries.flatMap((delivery) =>
    delivery.endpointIds.map((endpointId) => ({
      id: randomUUID(),
      buyerId: delivery.buyerId,
      endpointId,
      eventId: delivery.eventId,
    })),
  );
  if (rows.length === 0) return [];
  await tx.webhookDelivery.createMany({ data: rows });
  await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_WORK_CHANNEL}, '')`;
  return rows.map((row) => row.id);
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

function claimedDelivery(row: ClaimedRow, claimToken: string): ClaimedDelivery {
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

interface ClaimedRow {
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

/** A delivery whose lease ran out is pending again, to be claimed like any other. */
const RELEASE_EXPIRED_LEASES = `
  UPDATE webhook_deliveries SET status = 'pending', claim_token = NULL, updated_at = now()
  WHERE status = 'delivering' AND available_at <= now()
  RETURNING id`;

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
const claimedCte = (excludedLeases: string) => `
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

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /** Why it failed, when it did; never holds a secret. */
  error: string | null;
  durationMs: number;
}

export const isSuccess = (outcome: AttemptOutcome) =>
  outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300 && !outcome.error;

/**
 * What became of an attempt's outcome: written; not written because the
 * claim's lease ran out and the delivery was claimed again; not written
 * because the delivery is gone (its endpoint or event was deleted).
 */
export type AttemptRecord = "written" | "lease lost" | "delivery gone";

/**
 * Writes an attempt and what follows from it, in one transaction: success
 * (the endpoint is no longer failing), a retry at the next step of the
 * schedule, or giving up (the endpoint is failing, and disabled once it has
 * been failing for `disableFailingAfterMs`). Nothing is written when the
 * claim no longer holds the delivery.
 */
export async function recordAttempt(
  prisma: PrismaClient,
  claim: ClaimedDelivery,
  outcome: AttemptOutcome,
  settings: QueueSettings,
  random: () => number = Math.random,
): Promise<AttemptRecord> {
  const attempt = claim.attempts + 1;
  const succeeded = isSuccess(outcome);
  const delay = succeeded
    ? null
    : retryDelayMs(settings.retryScheduleMs, attempt, settings.retryJitter, random);
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const nextRetryAt = delay === null ? null : new Date(now.getTime() + delay);
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: claim.id, claimToken: claim.claimToken, status: "delivering" },
      data: {
        status: succeeded ? "succeeded" : nextRetryAt ? "pending" : "failed",
        attempts: attempt,
        claimToken: null,
        availableAt: nextRetryAt ?? now,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(succeeded ? { succeededAt: now } : {}),
      },
    });
    if (updated.count === 0) {
      const exists = await tx.webhookDelivery.count({ where: { id: claim.id } });
      return exists ? "lease lost" : "delivery gone";
    }
    await tx.webhookDeliveryAttempt.create({
      data: {
        id: randomUUID(),
        deliveryId: claim.id,
        attempt,
        statusCode: outcome.statusCode,
        durationMs: Math.round(outcome.durationMs),
        error: outcome.error,
        nextRetryAt,
        createdAt: now,
      },
    });
    if (succeeded) {
      await tx.webhookEndpoint.updateMany({
        where: { id: claim.endpointId, status: "failing" },
        data: { status: "enabled", failingSince: null },
      });
    } else if (!nextRetryAt) {
      await tx.webhookEndpoint.updateMany({
        where: { id: claim.endpointId, status: "enabled" },
        data: { status: "failing", failingSince: now },
      });
    }
    if (!succeeded) {
      await tx.webhookEndpoint.updateMany({
        where: {
          id: claim.endpointId,
          status: "failing",
          failingSince: { lte: new Date(now.getTime() - settings.disableFailingAfterMs) },
        },
        data: { status: "disabled", disabledAt: now, disabledReason: "failing" },
      });
    }
    return "written";
  });
}

/** A finished attempt waiting for its outcome to be written. */
export interface FinishedAttempt {
  claim: ClaimedDelivery;
  outcome: AttemptOutcome;
}

/** What `recordAttempts` did: what became of each outcome, in order, and the deliveries it claimed. */
export interface RecordedAttempts {
  records: AttemptRecord[];
  claims: ClaimedDelivery[];
}

/**
 * Writes the outcomes of several attempts and claims up to `claimLimit` due
 * deliveries, as `claimDeliveries` does, in the room the successes give back.
 * Successes are written, and the claim made, by one statement, which is one
 * transaction: each delivery's row, its attempt, its endpoint no longer
 * failing, and the claim, which counts the leases written as given back. A
 * failure goes through `recordAttempt` afterwards, on its own, since what it
 * does to its endpoint depends on the endpoint's state at that moment.
 */
export async function recordAttempts(
  database: Pick<Database, "prisma" | "query">,
  finished: readonly FinishedAttempt[],
  settings: QueueSettings & ClaimSettings,
  claimLimit: number,
): Promise<RecordedAttempts> {
  const records = new Map<FinishedAttempt, AttemptRecord>();
  const successes = finished.filter((attempt) => isSuccess(attempt.outcome));
  let claims: ClaimedDelivery[] = [];
  if (successes.length > 0) {
    const written = await recordSuccessesAndClaim(database, successes, settings, claimLimit);
    claims = written.claims;
    successes.forEach((attempt, index) => {
      records.set(attempt, written.records[index] ?? "delivery gone");
    });
  }
  for (const attempt of finished) {
    if (!records.has(attempt)) {
      records.set(attempt, await recordAttempt(database.prisma, attempt.claim, attempt.outcome, settings));
    }
  }
  return { records: finished.map((attempt) => records.get(attempt) ?? "delivery gone"), claims };
}

type RecordedOrClaimedRow =
  | { kind: "recorded"; id: string; written: boolean; present: boolean }
  | ({ kind: "claimed" } & ClaimedRow);

async function recordSuccessesAndClaim(
  database: Pick<Database, "query">,
  successes: readonly FinishedAttempt[],
  settings: ClaimSettings,
  claimLimit: number,
): Promise<RecordedAttempts> {
  const outcomes = successes.map(({ claim, outcome }) => ({
    delivery_id: claim.id,
    claim_token: claim.claimToken,
    attempt: claim.attempts + 1,
    status_code: outcome.statusCode,
    duration_ms: Math.round(outcome.durationMs),
    attempt_id: randomUUID(),
  }));
  const claimToken = randomUUID();
  const rows = await database.query<RecordedOrClaimedRow>(
    RECORD_SUCCESSES_AND_CLAIM,
    [
      claimToken,
      settings.leaseMs,
      settings.endpointConcurrency,
      settings.buyerConcurrency,
      claimLimit,
      JSON.stringify(outcomes),
      new Date(),
    ],
    "webhook_record_successes_and_claim",
  );
  const recorded = new Map<string, { written: boolean; present: boolean }>();
  const claims: ClaimedDelivery[] = [];
  for (const row of rows) {
    if (row.kind === "recorded") recorded.set(row.id, row);
    else claims.push(claimedDelivery(row, claimToken));
  }
  const records = successes.map(({ claim }): AttemptRecord => {
    const row = recorded.get(claim.id);
    if (row?.written) return "written";
    return row?.present ? "lease lost" : "delivery gone";
  });
  return { records, claims };
}

/**
 * $1 to $5 as for CLAIM_DUE_DELIVERIES, $6 the outcomes (a JSON array), $7 now.
 * What `recordAttempt` does for one success, for each of them, in one
 * statement: a delivery is written only while its claim still holds it; its
 * attempt is inserted and its endpoint, if failing, enabled, only when it
 * was. Each outcome comes back (kind `recorded`) with whether it was written
 * and whether its delivery still exists. The claim sees the rows as they were
 * when the statement began, so it leaves the leases written here out of its
 * count: they are given back by the same transaction (kind `claimed`).
 */
const RECORD_SUCCESSES_AND_CLAIM = `
  WITH outcome AS (
    SELECT * FROM jsonb_to_recordset($6::jsonb) AS o(
      delivery_id uuid, claim_token uuid, attempt int, status_code int, duration_ms int, attempt_id uuid)
  ),
  written AS (
    UPDATE webhook_deliveries delivery
    SET status = 'succeeded', attempts = outcome.attempt, claim_token = NULL, available_at = $7::timestamptz,
        last_status_code = outcome.status_code, last_error = NULL, succeeded_at = $7::timestamptz,
        updated_at = $7::timestamptz
    FROM outcome
    WHERE delivery.id = outcome.delivery_id AND delivery.claim_token = outcome.claim_token
      AND delivery.status = 'delivering'
    RETURNING delivery.id, delivery.endpoint_id
  ),
  tried AS (
    INSERT INTO webhook_delivery_attempts
      (id, delivery_id, attempt, status_code, duration_ms, error, next_retry_at, created_at)
    SELECT outcome.attempt_id, outcome.delivery_id, outcome.attempt, outcome.status_code, outcome.duration_ms,
           NULL, NULL, $7::timestamptz
    FROM outcome JOIN written ON written.id = outcome.delivery_id
  ),
  recovered AS (
    UPDATE webhook_endpoints
    SET status = 'enabled', failing_since = NULL, updated_at = $7::timestamptz
    WHERE id IN (SELECT endpoint_id FROM written) AND status = 'failing'
  ),
  ${claimedCte(`
            AND (leased.id, leased.claim_token) NOT IN (SELECT delivery_id, claim_token FROM outcome)`)}
  SELECT 'recorded' AS kind, outcome.delivery_id AS id, written.id IS NOT NULL AS written,
         -- A count rather than EXISTS, which the planner may answer by hashing the whole table.
         written.id IS NOT NULL
           OR (SELECT count(*) FROM webhook_deliveries kept WHERE kept.id = outcome.delivery_id) > 0 AS present,
         NULL::uuid AS endpoint_id, NULL::uuid AS event_id, NULL::int AS attempts, NULL::text AS event_type,
         NULL::timestamptz AS event_created_at, NULL::text AS event_data, NULL::text AS endpoint_url,
         NULL::text AS endpoint_status, NULL::text AS secret_ciphertext, NULL::text AS previous_secret_ciphertext,
         NULL::timestamptz AS previous_secret_expires_at
  FROM outcome LEFT JOIN written ON written.id = outcome.delivery_id
  UNION ALL
  SELECT 'claimed', claimed.id, NULL, NULL, claimed.endpoint_id, claimed.event_id, claimed.attempts,
         event.type, event.created_at, event.data, endpoint.url, endpoint.status::text,
         endpoint.secret_ciphertext, endpoint.previous_secret_ciphertext, endpoint.previous_secret_expires_at
  FROM claimed
  JOIN webhook_events event ON event.id = claimed.event_id
  JOIN webhook_endpoints endpoint ON endpoint.id = claimed.endpoint_id`;

/** A claimed delivery that will not be attempted: its endpoint was disabled meanwhile. */
export async function cancelDelivery(prisma: PrismaClient, claim: ClaimedDelivery, reason: string) {
  await prisma.webhookDelivery.updateMany({
    where: { id: claim.id, claimToken: claim.claimToken, status: "delivering" },
    data: { status: "cancelled", claimToken: null, lastError: reason },
  });
}

/** Deletes events (with their deliveries and attempts) created before `before`; returns how many. */
export async function pruneEvents(prisma: PrismaClient, before: Date): Promise<number> {
  const deleted = await prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: before } } });
  return deleted.count;
}
