// Writing several attempts' outcomes at once: the successes with a claim of
// new work in the room they give back, in one statement; the failures in
// another.
import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.js";
import { retryDelayMs } from "../domain/webhook-retries.js";
import { type AttemptOutcome, type AttemptRecord, isSuccess } from "./webhook-attempt-record.js";
import {
  type ClaimedDelivery,
  type ClaimedRow,
  type ClaimSettings,
  claimedCte,
  claimedDelivery,
} from "./webhook-claim.js";
import type { QueueSettings } from "./webhook-queue.js";

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
 * failing, and the claim, which counts the leases written as given back.
 * Failures are written afterwards by one statement of their own, which moves
 * each endpoint from the state it is in when the statement writes it.
 */
export async function recordAttempts(
  database: Pick<Database, "prisma" | "query">,
  finished: readonly FinishedAttempt[],
  settings: QueueSettings & ClaimSettings,
  claimLimit: number,
): Promise<RecordedAttempts> {
  const records = new Map<FinishedAttempt, AttemptRecord>();
  const successes = finished.filter((attempt) => isSuccess(attempt.outcome));
  const failures = finished.filter((attempt) => !isSuccess(attempt.outcome));
  let claims: ClaimedDelivery[] = [];
  if (successes.length > 0) {
    const written = await recordSuccessesAndClaim(database, successes, settings, claimLimit);
    claims = written.claims;
    successes.forEach((attempt, index) => {
      records.set(attempt, written.records[index] ?? "delivery gone");
    });
  }
  if (failures.length > 0) {
    const written = await recordFailures(database, failures, settings);
    failures.forEach((attempt, index) => {
      records.set(attempt, written[index] ?? "delivery gone");
    });
  }
  return { records: finished.map((attempt) => records.get(attempt) ?? "delivery gone"), claims };
}

/** What became of each outcome a statement wrote: whether it was written, and whether its delivery exists. */
interface RecordedRow {
  id: string;
  written: boolean;
  present: boolean;
}

function attemptRecordOf(row: RecordedRow | undefined): AttemptRecord {
  if (row?.written) return "written";
  return row?.present ? "lease lost" : "delivery gone";
}

/** The outcomes as both statements read them (`outcomeCte`): a JSON array, each with its retry's time (null: none). */
function outcomeRecords(
  attempts: readonly FinishedAttempt[],
  retryAt: (attempt: number) => Date | null,
): string {
  return JSON.stringify(
    attempts.map(({ claim, outcome }) => {
      const attempt = claim.attempts + 1;
      return {
        delivery_id: claim.id,
        claim_token: claim.claimToken,
        attempt,
        status_code: outcome.statusCode,
        duration_ms: Math.round(outcome.durationMs),
        error: outcome.error,
        next_retry_at: retryAt(attempt)?.toISOString() ?? null,
        attempt_id: randomUUID(),
      };
    }),
  );
}

/** `outcome`: the outcomes given as parameter `outcomes` (`outcomeRecords`). */
const outcomeCte = (outcomes: string) => `outcome AS (
    SELECT * FROM jsonb_to_recordset(${outcomes}::jsonb) AS o(
      delivery_id uuid, claim_token uuid, attempt int, status_code int, duration_ms int, error text,
      next_retry_at timestamptz, attempt_id uuid)
  )`;

/** `tried`: the attempt of each outcome whose delivery was `written`, made at parameter `now`. */
const triedCte = (now: string) => `tried AS (
    INSERT INTO webhook_delivery_attempts
      (id, delivery_id, attempt, status_code, duration_ms, error, next_retry_at, created_at)
    SELECT outcome.attempt_id, outcome.delivery_id, outcome.attempt, outcome.status_code, outcome.duration_ms,
           outcome.error, outcome.next_retry_at, ${now}::timestamptz
    FROM outcome JOIN written ON written.id = outcome.delivery_id
  )`;

// Whether an outcome was written, and whether its delivery still exists (a count
// rather than EXISTS, which the planner may answer by hashing the whole table).
const OUTCOME_RECORDED = `outcome.delivery_id AS id, written.id IS NOT NULL AS written,
         written.id IS NOT NULL
           OR (SELECT count(*) FROM webhook_deliveries kept WHERE kept.id = outcome.delivery_id) > 0 AS present`;

async function recordFailures(
  database: Pick<Database, "query">,
  failures: readonly FinishedAttempt[],
  settings: QueueSettings,
): Promise<AttemptRecord[]> {
  const now = new Date();
  const outcomes = outcomeRecords(failures, (attempt) => {
    const delay = retryDelayMs(settings.retryScheduleMs, attempt, settings.retryJitter);
    return delay === null ? null : new Date(now.getTime() + delay);
  });
  const rows = await database.query<RecordedRow>(
    RECORD_FAILURES,
    [outcomes, now, new Date(now.getTime() - settings.disableFailingAfterMs)],
    "webhook_record_failures",
  );
  const recorded = new Map(rows.map((row) => [row.id, row]));
  return failures.map(({ claim }) => attemptRecordOf(recorded.get(claim.id)));
}

// An endpoint one of the failures gave up on, while it is enabled: it becomes failing.
const GIVES_UP = `endpoint.status = 'enabled' AND failed.gave_up`;
// An endpoint failing (or made failing now) since the threshold ($3): it is disabled.
const DISABLES = `((${GIVES_UP} AND $2::timestamptz <= $3::timestamptz)
    OR (endpoint.status = 'failing' AND endpoint.failing_since <= $3::timestamptz))`;

/**
 * $1 the outcomes (a JSON array, each with its next retry, none when it gives
 * up), $2 now, $3 the time before which an endpoint failing since is
 * disabled. For each failure, in one statement: a delivery is written only
 * while its claim still holds it, pending its retry or failed; its attempt is
 * inserted; its endpoint becomes failing when a delivery gives up on it while
 * it is enabled, and disabled once it has been failing since the threshold.
 * The endpoint's own row, as the statement writes it, decides, so a
 * concurrent change (disabled on request) is never undone. Each outcome comes
 * back with whether it was written and whether its delivery still exists.
 */
const RECORD_FAILURES = `
  WITH ${outcomeCte("$1")},
  written AS (
    UPDATE webhook_deliveries delivery
    SET status = (CASE WHEN outcome.next_retry_at IS NULL THEN 'failed' ELSE 'pending' END)::"WebhookDeliveryStatus",
        attempts = outcome.attempt, claim_token = NULL,
        available_at = coalesce(outcome.next_retry_at, $2::timestamptz),
        last_status_code = outcome.status_code, last_error = outcome.error, updated_at = $2::timestamptz
    FROM outcome
    WHERE delivery.id = outcome.delivery_id AND delivery.claim_token = outcome.claim_token
      AND delivery.status = 'delivering'
    RETURNING delivery.id, delivery.endpoint_id, outcome.next_retry_at IS NULL AS gave_up
  ),
  ${triedCte("$2")},
  failed AS (
    SELECT endpoint_id, bool_or(gave_up) AS gave_up FROM written GROUP BY endpoint_id
  ),
  -- The endpoints' rows locked in one order, so that two workers' statements never deadlock.
  locked AS MATERIALIZED (
    SELECT id FROM webhook_endpoints WHERE id IN (SELECT endpoint_id FROM failed) ORDER BY id FOR UPDATE
  ),
  moved AS (
    UPDATE webhook_endpoints endpoint
    SET status = (CASE WHEN ${DISABLES} THEN 'disabled' WHEN ${GIVES_UP} THEN 'failing'
                  ELSE endpoint.status::text END)::"WebhookEndpointStatus",
        failing_since = CASE WHEN ${GIVES_UP} THEN $2::timestamptz ELSE endpoint.failing_since END,
        disabled_at = CASE WHEN ${DISABLES} THEN $2::timestamptz ELSE endpoint.disabled_at END,
        disabled_reason = CASE WHEN ${DISABLES} THEN 'failing' ELSE endpoint.disabled_reason END,
        updated_at = $2::timestamptz
    FROM failed JOIN locked ON locked.id = failed.endpoint_id
    WHERE endpoint.id = failed.endpoint_id AND (${GIVES_UP} OR ${DISABLES})
  )
  SELECT ${OUTCOME_RECORDED}
  FROM outcome LEFT JOIN written ON written.id = outcome.delivery_id`;

type RecordedOrClaimedRow = ({ kind: "recorded" } & RecordedRow) | ({ kind: "claimed" } & ClaimedRow);

async function recordSuccessesAndClaim(
  database: Pick<Database, "query">,
  successes: readonly FinishedAttempt[],
  settings: ClaimSettings,
  claimLimit: number,
): Promise<RecordedAttempts> {
  const outcomes = outcomeRecords(successes, () => null);
  const claimToken = randomUUID();
  const rows = await database.query<RecordedOrClaimedRow>(
    RECORD_SUCCESSES_AND_CLAIM,
    [
      claimToken,
      settings.leaseMs,
      settings.endpointConcurrency,
      settings.buyerConcurrency,
      claimLimit,
      outcomes,
      new Date(),
    ],
    "webhook_record_successes_and_claim",
  );
  const recorded = new Map<string, RecordedRow>();
  const claims: ClaimedDelivery[] = [];
  for (const row of rows) {
    if (row.kind === "recorded") recorded.set(row.id, row);
    else claims.push(claimedDelivery(row, claimToken));
  }
  return { records: successes.map(({ claim }) => attemptRecordOf(recorded.get(claim.id))), claims };
}

/**
 * $1 to $5 as for CLAIM_DUE_DELIVERIES, $6 the outcomes (a JSON array), $7 now.
 * For each success, in one statement: a delivery is written only while its
 * claim still holds it; its attempt is inserted and its endpoint, if failing,
 * enabled, only when it was. Each outcome comes back (kind `recorded`) with
 * whether it was written and whether its delivery still exists. The claim sees the rows as they were
 * when the statement began, so it leaves the leases written here out of its
 * count: they are given back by the same transaction (kind `claimed`).
 */
const RECORD_SUCCESSES_AND_CLAIM = `
  WITH ${outcomeCte("$6")},
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
  ${triedCte("$7")},
  recovered AS (
    UPDATE webhook_endpoints
    SET status = 'enabled', failing_since = NULL, updated_at = $7::timestamptz
    WHERE id IN (SELECT endpoint_id FROM written) AND status = 'failing'
  ),
  ${claimedCte(`
            AND (leased.id, leased.claim_token) NOT IN (SELECT delivery_id, claim_token FROM outcome)`)}
  SELECT 'recorded' AS kind, ${OUTCOME_RECORDED},
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
