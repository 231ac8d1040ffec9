import type { Prisma, PrismaClient } from "../db/generated/prisma/client.js";
import { decryptAtRest, encryptAtRest, isEncryptedAtRest } from "../domain/webhook-secrets.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What a keyed request answered: kept, and replayed to a retry. */
export interface KeptResponse {
  status: number;
  body: string;
}

export type IdempotentOutcome<Fresh extends KeptResponse> =
  /** The request ran now; its response is kept (unless it is a 5xx) in the transaction of its work. */
  | { kind: "ran"; response: Fresh }
  | { kind: "replay"; response: KeptResponse }
  | { kind: "mismatch" }
  | { kind: "in_progress" };

export interface IdempotencyStore {
  /**
   * Runs `work` for the first request with this key, or says why not. `work`
   * gets the client of one transaction, which also keeps the response it
   * returns: its writes and its response commit together or not at all, so a
   * retry after a crash at any point either replays or runs the work anew,
   * never twice. A response of 400 or more is kept without the writes that
   * led to it (a refused request changes nothing); a 5xx undoes everything and
   * is not kept, so the client may retry.
   */
  run<Fresh extends KeptResponse>(
    apiKeyId: string,
    key: string,
    requestHash: string,
    work: (prisma: PrismaClient) => Promise<Fresh>,
  ): Promise<IdempotentOutcome<Fresh>>;
}

type Queryable = Pick<Prisma.TransactionClient, "$queryRaw">;

/** Thrown out of the work's nested transaction to undo its writes while keeping its response. */
class Undone<Fresh extends KeptResponse> {
  constructor(readonly response: Fresh) {}
}

/**
 * Idempotency records live in the database so that every server process sees
 * them. A kept response may show a webhook signing secret, so its body is
 * stored encrypted with the keys that encrypt those secrets (the first writes,
 * any of them reads), bound to its API key and Idempotency-Key.
 */
export function createIdempotencyStore(
  prisma: PrismaClient,
  encryptionKeys: readonly Buffer[],
  onSweepError: (error: unknown) => void = () => {},
): IdempotencyStore {
  let sweptAt = Number.NEGATIVE_INFINITY;
  return {
    run: (apiKeyId, key, requestHash, work) => {
      const now = Date.now();
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        sweepExpiredRecords(prisma, new Date(now)).catch(onSweepError);
      }
      return runOnce(prisma, { apiKeyId, key, encryptionKeys }, requestHash, work);
    },
  };
}

/** How often a process deletes expired records, beside a keyed request. */
const SWEEP_EVERY_MS = 60_000;
/** The most expired records one sweep deletes, so that a sweep stays one short statement. */
const SWEEP_BATCH = 1_000;

/**
 * Deletes expired records: nothing reads them, and records kept by earlier
 * versions hold their responses in clear, so none may outlive its window.
 */
async function sweepExpiredRecords(prisma: PrismaClient, now: Date): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM idempotency_records WHERE ctid IN (
      SELECT ctid FROM idempotency_records WHERE expires_at < ${now} LIMIT ${SWEEP_BATCH})`;
}

/** Which record (API key and Idempotency-Key), and the keys its body is encrypted with. */
interface RecordScope {
  apiKeyId: string;
  key: string;
  encryptionKeys: readonly Buffer[];
}

async function runOnce<Fresh extends KeptResponse>(
  prisma: PrismaClient,
  record: RecordScope,
  requestHash: string,
  work: (prisma: PrismaClient) => Promise<Fresh>,
): Promise<IdempotentOutcome<Fresh>> {
  const { apiKeyId, key } = record;
  // Most retries find a kept response; they need no transaction.
  const kept = await keptRecord(prisma, apiKeyId, key);
  if (kept) return answerFrom(kept, requestHash, record);
  try {
    return await prisma.$transaction(async (tx): Promise<IdempotentOutcome<Fresh>> => {
      // One request per key at a time. The lock goes with the transaction: a request
      // whose process died holds it no longer, and a second request never waits on it.
      const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(hashtextextended(${`idempotency:${apiKeyId}:${key}`}, 0)) AS taken`;
      if (!lock?.taken) return { kind: "in_progress" };
      // A request with this key may have finished since the first look.
      const finished = await keptRecord(tx, apiKeyId, key);
      if (finished) return answerFrom(finished, requestHash, record);
      const response = await workUndoingRefusals(tx, work);
      await keep(tx, record, requestHash, response);
      return { kind: "ran", response };
    });
  } catch (error) {
    if (error instanceof Undone) return { kind: "ran", response: error.response as Fresh };
    throw error;
  }
}

/**
 * The work's response, its writes undone when it is a refusal (400 or more).
 * A 5xx is thrown on as `Undone`, to undo the whole transaction: it is not kept.
 */
async function workUndoingRefusals<Fresh extends KeptResponse>(
  tx: Prisma.TransactionClient,
  work: (prisma: PrismaClient) => Promise<Fresh>,
): Promise<Fresh> {
  try {
    // A nested transaction is a savepoint; the resolvers' own transactions nest in it too.
    return await tx.$transaction(async (inner) => {
      const response = await work(inner as unknown as PrismaClient);
      if (response.status >= 400) throw new Undone(response);
      return response;
    });
  } catch (error) {
    if (error instanceof Undone && error.response.status < 500) return error.response as Fresh;
    throw error;
  }
}

function answerFrom<Fresh extends KeptResponse>(
  kept: { requestHash: string; status: number; body: string },
  requestHash: string,
  record: RecordScope,
): IdempotentOutcome<Fresh> {
  if (kept.requestHash !== requestHash) return { kind: "mismatch" };
  // A body kept in clear was written by an earlier version; it replays as it is.
  const body = isEncryptedAtRest(kept.body)
    ? decryptAtRest(
        kept.body,
        boundTo(record),
        record.encryptionKeys,
        "a response kept for an Idempotency-Key",
      )
    : kept.body;
  return { kind: "replay", response: { status: kept.status, body } };
}

/** What a kept body's ciphertext is bound to: a body copied to another record does not decrypt. */
function boundTo({ apiKeyId, key }: RecordScope): string {
  return `idempotency:${apiKeyId}:${key}`;
}

/**
 * The kept response for this key within its window. Rows without a response
 * were left by versions that stored it after the work committed; they prove
 * nothing, and the next request with the key takes them over.
 */
async function keptRecord(
  db: Queryable,
  apiKeyId: string,
  key: string,
): Promise<{ requestHash: string; status: number; body: string } | null> {
  const [row] = await db.$queryRaw<
    { request_hash: string; response_status: number; response_body: string }[]
  >`
    SELECT request_hash, response_status, response_body FROM idempotency_records
    WHERE api_key_id = ${apiKeyId}::uuid AND key = ${key} AND expires_at >= ${new Date()}
      AND response_status IS NOT NULL AND response_body IS NOT NULL`;
  return row ? { requestHash: row.request_hash, status: row.response_status, body: row.response_body } : null;
}

async function keep(
  tx: Prisma.TransactionClient,
  record: RecordScope,
  requestHash: string,
  response: KeptResponse,
): Promise<void> {
  const { apiKeyId, key } = record;
  const body = encryptAtRest(response.body, boundTo(record), record.encryptionKeys);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS);
  // Under this key's lock, any row already there has expired or has no response.
  await tx.$executeRaw`
    INSERT INTO idempotency_records
      (api_key_id, key, request_hash, response_status, response_body, created_at, expires_at)
    VALUES (${apiKeyId}::uuid, ${key}, ${requestHash}, ${response.status}, ${body}, ${now}, ${expiresAt})
    ON CONFLICT (api_key_id, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
          response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
          expires_at = EXCLUDED.expires_at`;
}
