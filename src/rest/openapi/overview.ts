import { PROBLEMS } from "./problems.js";
import type { ProblemCode } from "./types.js";

function problemTable(): string {
  const rows = (Object.entries(PROBLEMS) as [ProblemCode, (typeof PROBLEMS)[ProblemCode]][])
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, entry]) => `| ${entry.status} | \`${code}\` | ${entry.when} |`);
  return ["| status | code | when |", "|---|---|---|", ...rows].join("\n");
}

/** The introduction of the reference: what holds for every operation. */
export function overview(): string {
  return `The Buyer Public API lets your organisation manage supplier users, tags, buyer products, orders and buyer product approvals. Every request and response body is JSON; every path starts with \`/api/public/buyer/v1\`.

The same operations are available as GraphQL at [\`/graphql\`](/graphql) (GraphiQL in a browser).

## Authentication

Send your API key in the \`X-API-KEY\` header on every request. Keys belong to one buyer organisation and see only its records: a record of another organisation behaves exactly like one that does not exist (404). Keys are issued and revoked by an operator; a missing, unknown or revoked key is 401.

## Errors

Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details with \`Content-Type: application/problem+json\` and a stable \`code\`. Field problems are all reported at once in \`errors\`, each naming the field in the REST spelling (\`tag_ids[2]\`). Checks run in this order: unknown path (404), wrong method (405, with \`Allow\`), API key (401), rate limit (429), path id (404), content type (415), size (413), JSON (400), field types and enum values (422), then the operation itself (its own 404, 409, 422).

${problemTable()}

## Pagination

The list operations return a bare JSON array, newest first. \`limit\` (1 to 500, default 100) sets the page size; when more items follow, the response carries \`Link: <url>; rel="next"\` and that URL returns the next page.

## Idempotency

\`POST\` operations accept an \`Idempotency-Key\` header (at most 255 characters). Repeating a request with the same key and body within 24 hours returns the first response again, with \`Idempotent-Replayed: true\`, and creates nothing. A 5xx response is not kept, so the request may be retried.

## Rate limits

Each API key may make a fixed number of requests per minute (600 unless configured). Responses to a valid key carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the limit the response is 429 with \`Retry-After\`.

## Versioning

The version is the \`v1\` in the path. Changes within v1 are additive only: new operations, new optional request fields, new response fields. Ignore response fields you do not know; unknown request fields are ignored too.`;
}
