import { createHash } from "node:crypto";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { IdempotencyStore } from "../services/idempotency-store.js";
import { problemResponse } from "./problem.js";

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface IdempotentRequest {
  apiKeyId: string;
  /** The `Idempotency-Key` header. */
  key: string;
  method: string;
  pathname: string;
  body: Record<string, unknown>;
  requestId: string;
}

/**
 * Answers a request that carries an `Idempotency-Key`: the first time by
 * running `respond` with the client of the transaction that also keeps its
 * response (unless it is a 5xx), after that by replaying what was kept, so
 * that a retry does nothing twice, even after a crash (see IdempotencyStore).
 */
export async function respondIdempotently(
  store: IdempotencyStore,
  request: IdempotentRequest,
  respond: (prisma: PrismaClient) => Promise<Response>,
): Promise<Response> {
  const { apiKeyId, key, requestId } = request;
  if (key.trim() === "" || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    const message = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
    return problemResponse(
      {
        status: 422,
        code: "validation_failed",
        detail: `Idempotency-Key ${message}`,
        errors: [{ field: "Idempotency-Key", code: "invalid", message }],
      },
      requestId,
    );
  }
  const requestHash = createHash("sha256")
    .update(`${request.method} ${request.pathname}\n${canonicalJson(request.body)}`)
    .digest("hex");
  const outcome = await store.run(apiKeyId, key, requestHash, async (prisma) => {
    const response = await respond(prisma);
    return { status: response.status, body: await response.text(), headers: response.headers };
  });
  switch (outcome.kind) {
    case "mismatch":
      return problemResponse(
        {
          status: 422,
          code: "idempotency_key_reused",
          detail: "This Idempotency-Key was used with a different request",
        },
        requestId,
      );
    case "in_progress":
      return problemResponse(
        {
          status: 409,
          code: "idempotency_request_in_progress",
          detail: "A request with this Idempotency-Key is still being processed; retry shortly",
        },
        requestId,
      );
    case "replay": {
      const { status, body } = outcome.response;
      return new Response(body, {
        status,
        headers: {
          "content-type": status >= 400 ? "application/problem+json" : "application/json; charset=utf-8",
          "idempotent-replayed": "true",
        },
      });
    }
    case "ran": {
      crashAfterCommitWhenTesting();
      const { status, body, headers } = outcome.response;
      return new Response(body, { status, headers });
    }
  }
}

/** JSON with object keys sorted, so that the same body sent with its keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Test only (test/hardening/crash-retry.test.ts): with BPA_TEST_CRASH_AFTER_COMMIT=1 the process
 * kills itself (SIGKILL) right after a keyed request's work and response have committed, before
 * the response leaves: the moment a crash used to leave the key "in progress" and the work done.
 */
function crashAfterCommitWhenTesting(): void {
  if (process.env.BPA_TEST_CRASH_AFTER_COMMIT === "1") process.kill(process.pid, "SIGKILL");
}
