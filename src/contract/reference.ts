import type { JsonSchema } from "./route.js";

// What the reference says that no one route owns: its introduction, and the
// headers every request and response may carry. Those are decided by the HTTP
// layer (src/app.ts, src/rest/handler.ts, src/http/conditional-get.ts), so they
// are described here once, and src/openapi says which response carries which.

/** A response header, as the document's `components.headers` describes it. */
export interface ResponseHeader {
  description: string;
  required: boolean;
  schema: JsonSchema;
}

/** A request header, as the document's `components.parameters` describes it. */
export interface HeaderParameter {
  name: string;
  in: "header";
  required: false;
  description: string;
  schema: JsonSchema;
  example: string;
}

const TEXT: JsonSchema = { type: "string" };
const COUNT: JsonSchema = { type: "integer", minimum: 0 };

/** A header every response it is listed on carries. */
const header = (schema: JsonSchema, description: string) => ({
  description,
  required: true,
  schema,
});

/** A header some responses it is listed on carry. */
const optionalHeader = (schema: JsonSchema, description: string) => ({
  description,
  required: false,
  schema,
});

export const RESPONSE_HEADERS = {
  "X-Request-Id": header(
    TEXT,
    "The request's id: the caller's `X-Request-Id` when it is a sane token (letters, digits and `._:-`, at most 128 characters), else a new UUID. Problem bodies carry it as `request_id`.",
  ),
  "RateLimit-Limit": header(COUNT, "Requests the API key may make per one-minute window."),
  "RateLimit-Remaining": header(COUNT, "Requests left in the current window."),
  "RateLimit-Reset": header(COUNT, "Seconds until the current window ends."),
  "Retry-After": header(COUNT, "Seconds to wait before trying again."),
  Link: optionalHeader(
    TEXT,
    'The next page as `<url>; rel="next"` (RFC 8288), when more items follow; absent on the last page. The URL keeps every other query parameter.',
  ),
  "Idempotent-Replayed": optionalHeader(
    { type: "string", enum: ["true"] },
    "`true` when this response replays the first response to an earlier request with the same `Idempotency-Key`; nothing was done again.",
  ),
  // Conditional requests (docs/design/decisions.md §9): on every GET, and on each PATCH whose route checks If-Match.
  ETag: header(
    TEXT,
    'A strong entity tag, `"<version>-<hash>"`: it changes whenever the body would change. Send it back in `If-None-Match` to learn whether anything changed (304), or in `If-Match` on `PATCH` to change only what you read. On a `PATCH` response, the tag a `GET` of the same path now shows.',
  ),
  "Cache-Control": header(
    { type: "string", enum: ["private, no-cache"] },
    "`private, no-cache`: a client may keep the response, but must revalidate it (If-None-Match) before each use.",
  ),
} satisfies Record<string, ResponseHeader>;

export const HEADER_PARAMETERS = {
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
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "The `ETag` of a response you kept. When it is still current the answer is 304 without a body, and it does not count against the rate limit (`RateLimit-Remaining` is unchanged). A malformed value is ignored.",
    schema: { type: "string" },
    example: '"42-9f86d081884c7d65"',
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description:
      "Change the record only if it has not changed since you read it: the `ETag` of a `GET` of the same path (the record itself, not a list), or of your last `PATCH` of it, or `*` for any existing record. When it changed since, the answer is 412 `precondition_failed` and nothing is done. A tag of another URL, a weak tag (`W/`) and a malformed value never match. Without the header the update goes ahead as always.",
    schema: { type: "string" },
    example: '"42-3c1e5b0f7a9d2e64"',
  },
} satisfies Record<string, HeaderParameter>;

const POLLING_SECTION = `## Polling efficiently

Every \`GET\` of orders, buyer products, approvals and the lists of them answers with a strong \`ETag\` and \`Cache-Control: private, no-cache\`; the operations that carry them list \`If-None-Match\` and 304. Events, webhook endpoints and deliveries change as deliveries run, so their \`GET\`s answer \`Cache-Control: no-store\` without an \`ETag\`: read them again each time. Keep the body and its \`ETag\`; next time, send the tag in \`If-None-Match\`. While nothing the answer shows has changed, the answer is \`304 Not Modified\` without a body, and it does not count against your rate limit (\`RateLimit-Remaining\` stays where it was). A tag changes whenever the body would; a change to records the answer cannot show keeps it (an order's change keeps the tags of the approvals and buyer products).

\`\`\`sh
curl -si https://api.example.com/api/public/buyer/v1/orders?limit=100 -H "X-API-KEY: $KEY" | grep -i etag
# ETag: "42-9f86d081884c7d65"
curl -si https://api.example.com/api/public/buyer/v1/orders?limit=100 -H "X-API-KEY: $KEY" \\
  -H 'If-None-Match: "42-9f86d081884c7d65"'
# HTTP/1.1 304 Not Modified
\`\`\`

Send \`Accept-Encoding: br\` or \`gzip\` and answers of 1 KiB or more come compressed (\`Content-Encoding\`, \`Vary: Accept-Encoding\`); a 100-order page shrinks to about an eighth. A compressed answer's \`ETag\` ends in \`-br\` or \`-gz\` (each coding is its own representation); any coding's tag works in \`If-None-Match\`, and in \`If-Match\` wherever the plain tag would.

To change an order only if nobody changed it since you read it, send the \`ETag\` of \`GET /orders/{id}\` in \`If-Match\`; if the order changed since, the answer is 412 \`precondition_failed\` and nothing is done. The \`PATCH\` response carries the order's new \`ETag\`. A list's \`ETag\` is the list's, not the order's: it never matches.

\`\`\`sh
curl -si https://api.example.com/api/public/buyer/v1/orders/$ORDER_ID -H "X-API-KEY: $KEY" | grep -i etag
# ETag: "42-3c1e5b0f7a9d2e64"
curl -si -X PATCH https://api.example.com/api/public/buyer/v1/orders/$ORDER_ID -H "X-API-KEY: $KEY" \\
  -H 'If-Match: "42-3c1e5b0f7a9d2e64"' -H 'Content-Type: application/json' -d '{"order_status":"order_confirmed"}'
\`\`\``;

/** The introduction of the reference, what holds for every operation, around the table of every problem. */
export function referenceIntroduction(problemTable: string): string {
  return `The Buyer Public API lets your organisation manage supplier users, tags, buyer products, orders and buyer product approvals. Every request and response body is JSON; every path starts with \`/api/public/buyer/v1\`.

The same operations are available as GraphQL at [\`/graphql\`](/graphql) (GraphiQL in a browser).

## Authentication

Send your API key in the \`X-API-KEY\` header on every request. Keys belong to one buyer organisation and see only its records: a record of another organisation behaves exactly like one that does not exist (404). Keys are issued and revoked by an operator; a missing, unknown or revoked key is 401.

## Errors

Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details with \`Content-Type: application/problem+json\` and a stable \`code\`. Field problems are all reported at once in \`errors\`, each naming the field in the REST spelling (\`tag_ids[2]\`). Checks run in this order: a request HTTP cannot route (400 \`bad_request\`, 408, 431, answered before anything else), unknown path (404), wrong method (405, with \`Allow\`), API key (401), rate limit (429), path id (404), content type (415), size (413), JSON (400), a query parameter the operation does not take (400 \`unknown_parameter\`), field types and enum values (422), then the operation itself (its own 404, 409, 422).

${problemTable}

## Pagination

The list operations return a bare JSON array, newest first. \`limit\` (1 to 500, default 100) sets the page size; when more items follow, the response carries \`Link: <url>; rel="next"\` and that URL returns the next page.

## Idempotency

\`POST\` operations accept an \`Idempotency-Key\` header (at most 255 characters). Repeating a request with the same key and body within 24 hours returns the first response again, with \`Idempotent-Replayed: true\`, and creates nothing. A 5xx response is not kept, so the request may be retried.

## Rate limits

Each API key may make a fixed number of requests per minute (600 unless configured). Responses to a valid key carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the limit the response is 429 with \`Retry-After\`. A 304 Not Modified is not counted.

${POLLING_SECTION}

## Versioning

The version is the \`v1\` in the path. Changes within v1 are additive only: new operations, new optional request fields, new response fields. Ignore response fields you do not know; unknown request fields are ignored too.`;
}
