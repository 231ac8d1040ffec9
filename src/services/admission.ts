// The statements of admission (src/http/admission.ts): an API key's lookup
// with its buyer's versions and its count in the rate-limit window, for many
// requests at once, and one more count in a window.
import type { Database } from "../db/database.js";

/** A request to admit: its key's hash, the versions its tags claim, and the record types its read can show. */
export interface AdmissionClaim {
  hash: string;
  claimed: readonly bigint[];
  /** The change log's record types the read's answer can show; null for any of the buyer's. */
  recordTypes: readonly string[] | null;
}

/** What the statement found for a request whose key exists and is not revoked. */
export interface AdmittedKey {
  apiKeyId: string;
  buyerId: string;
  lastUsedAt: Date | null;
  /** The buyer's version. */
  version: bigint;
  /** The highest version of the claim's record types: the buyer's version of their last write (0: never written). */
  readVersion: bigint;
  /** The primary's WAL insert position as the statement read the versions. */
  walPosition: string;
  /** The window's count after this request when it was counted; null when it was not. */
  counted: number | null;
  /** The window's count with this request when counted, without it otherwise. */
  standing: number;
}

// One statement admits the requests that arrive together: $1 their keys'
// hashes, $2 the rate-limit window, $3 for each request the versions its tags
// claim and $4 the record types its read can show (comma-separated; null for
// any, the buyer's version). A request counts unless it claims its read's
// version. A key's requests are counted by one row update, numbered in arrival
// order; keys' rows are locked in one order, so that two statements never
// deadlock.
const ADMISSION_STATEMENT = `
  WITH request AS (
    SELECT r.position, r.hash, string_to_array(r.claimed, ',')::bigint[] AS claimed,
           string_to_array(r.record_types, ',') AS record_types
    FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS r(hash, claimed, record_types, position)
  ), api_key AS (
    SELECT request.position, k.id, k.buyer_id, k.last_used_at, coalesce(v.version, 0) AS version,
           read.version AS read_version, NOT (read.version = ANY (request.claimed)) AS counts
    FROM request
    JOIN api_keys AS k ON k.hash = request.hash AND k.revoked_at IS NULL
    LEFT JOIN buyer_versions AS v ON v.buyer_id = k.buyer_id
    CROSS JOIN LATERAL (
      SELECT CASE WHEN request.record_types IS NULL THEN coalesce(v.version, 0)
             ELSE (SELECT coalesce(max(t.version), 0) FROM buyer_record_versions AS t
                   WHERE t.buyer_id = k.buyer_id AND t.record_type = ANY (request.record_types)) END AS version
    ) AS read
  ), counted AS (
    INSERT INTO rate_limit_windows (subject, window_start, count)
    SELECT 'key:' || api_key.id, $2, count(*) FROM api_key WHERE api_key.counts GROUP BY api_key.id ORDER BY 1
    ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
    RETURNING subject, count
  ), admitted AS (
    SELECT a.*, c.count AS after_all,
           -- A counted request's count: the key's count after the statement, less the key's requests counted after it.
           CASE WHEN a.counts THEN c.count - coalesce(sum(a.counts::int) OVER (PARTITION BY a.id ORDER BY a.position DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) END AS counted
    FROM api_key AS a LEFT JOIN counted AS c ON c.subject = 'key:' || a.id
  )
  SELECT position::int AS position, id::text AS id, buyer_id::text AS buyer_id, last_used_at,
         version::text AS version, read_version::text AS read_version,
         pg_current_wal_insert_lsn()::text AS wal_position, counted::int AS counted,
         -- Read only for a key none of whose requests was counted (COALESCE stops at the first value).
         coalesce(counted, after_all, (SELECT w.count FROM rate_limit_windows AS w
           WHERE w.subject = 'key:' || admitted.id AND w.window_start = $2))::int AS standing
  FROM admitted`;

interface AdmissionRow {
  /** The request's place in the statement's list, from 1. */
  position: number;
  id: string;
  buyer_id: string;
  last_used_at: Date | null;
  version: string;
  read_version: string;
  wal_position: string;
  counted: number | null;
  standing: number | null;
}

/**
 * Admits `claims` with one statement, counting them in the window starting at
 * `windowStart`: for each, in their order, its key, or null when there is no
 * such key or it is revoked.
 */
export async function admitClaims(
  database: Pick<Database, "query">,
  claims: readonly AdmissionClaim[],
  windowStart: Date,
): Promise<(AdmittedKey | null)[]> {
  const rows = await database.query<AdmissionRow>(
    ADMISSION_STATEMENT,
    [
      claims.map((claim) => claim.hash),
      windowStart,
      claims.map((claim) => claim.claimed.join(",")),
      claims.map((claim) => claim.recordTypes?.join(",") ?? null),
    ],
    "admission",
  );
  const byPosition = new Map(rows.map((row) => [row.position, row]));
  return claims.map((_, index) => {
    const row = byPosition.get(index + 1);
    return row
      ? {
          apiKeyId: row.id,
          buyerId: row.buyer_id,
          lastUsedAt: row.last_used_at,
          version: BigInt(row.version),
          readVersion: BigInt(row.read_version),
          walPosition: row.wal_position,
          counted: row.counted,
          standing: row.standing ?? 0,
        }
      : null;
  });
}

// One more request of `subject` ($1) in the window starting at $2; the window's count after it.
const COUNT_IN_WINDOW = `
  INSERT INTO rate_limit_windows (subject, window_start, count) VALUES ($1, $2, 1)
  ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
  RETURNING count`;

/** Counts one more request of `subject` in the window starting at `windowStart`; the window's count after it. */
export async function countInWindow(
  database: Pick<Database, "query">,
  subject: string,
  windowStart: Date,
): Promise<number> {
  const [row] = await database.query<{ count: number }>(
    COUNT_IN_WINDOW,
    [subject, windowStart],
    "count_in_window",
  );
  return row?.count ?? 1;
}
