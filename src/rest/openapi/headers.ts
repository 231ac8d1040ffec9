import type { Header, Parameter, Reference } from "./types.js";

// Headers are decided by the HTTP layer (app.ts, handler.ts), not by the
// route table, so they are described here once and referenced by responses.

export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id: the caller's `X-Request-Id` when it is a sane token (letters, digits and `._:-`, at most 128 characters), else a new UUID. Problem bodies carry it as `request_id`.",
    required: true,
    schema: { type: "string" },
  },
  "RateLimit-Limit": {
    description: "Requests the API key may make per one-minute window.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the current window ends.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  Link: {
    description:
      'The next page as `<url>; rel="next"` (RFC 8288), when more items follow; absent on the last page. The URL keeps every other query parameter.',
    required: false,
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this response replays the first response to an earlier request with the same `Idempotency-Key`; nothing was done again.",
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
} satisfies Record<string, Header>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export function headerRef(name: ResponseHeaderName): Reference {
  return { $ref: `#/components/headers/${name}` };
}

export const PARAMETERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: the same key with the same body, from the same API key, within 24 hours, replays the first response (with `Idempotent-Replayed: true`) and creates nothing. The same key with a different body is 422 `idempotency_key_reused`. Use a new random value, such as a UUID, per intended operation.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
    example: "5f0c3d4e-8b7a-4c2d-9e1f-a2b3c4d5e6f7",
  },
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request, echoed in the `X-Request-Id` response header and in problem bodies when it is letters, digits and `._:-`, at most 128 characters; otherwise the service makes one.",
    schema: { type: "string" },
    example: "checkout-7f3a9",
  },
} satisfies Record<string, Parameter>;

export function parameterRef(name: keyof typeof PARAMETERS): Reference {
  return { $ref: `#/components/parameters/${name}` };
}
