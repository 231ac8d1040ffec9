import { createHash } from "node:crypto";
import type { IdempotencyStore } from "./idempotency-store.js";
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
 * running `respond` and keeping its response (unless it is a 5xx), after that
 * by replaying what was kept, so that a retry does nothing twice.
 */
export async function respondIdempotently(
  store: IdempotencyStore,
  request: IdempotentRequest,
  respond: () => Promise<Response>,
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
  const claim = await store.claim(apiKeyId, key, requestHash);
  switch (claim.kind) {
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
    case "replay":
      return new Response(claim.body, {
        status: claim.status,
        headers: {
          "content-type":
            claim.status >= 400 ? "application/problem+json" : "application/json; charset=utf-8",
          "idempotent-replayed": "true",
        },
      });
    case "claimed": {
      const response = await respond();
      if (response.status >= 500) {
        await store.release(apiKeyId, key);
        return response;
      }
      const text = await response.text();
      await store.complete(apiKeyId, key, response.status, text);
      return new Response(text, { status: response.status, headers: response.headers });
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
