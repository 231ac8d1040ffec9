import type { RestRoute } from "../../contract/route.js";
import { acceptsIfMatch } from "../conditional-write.js";
import type { Header, Parameter, Reference, Response } from "./types.js";

// Conditional requests (docs/decisions.md §9) as the document describes them:
// ETag and Cache-Control on reads, If-None-Match and 304, If-Match and 412.
// Decided by the HTTP layer for every GET, and for each PATCH whose route checks If-Match.

export const CONDITIONAL_HEADERS = {
  ETag: {
    description:
      'A strong entity tag, `"<version>-<hash>"`: it changes whenever the body would change. Send it back in `If-None-Match` to learn whether anything changed (304), or in `If-Match` on `PATCH` to change only what you read. On a `PATCH` response, the tag a `GET` of the same path now shows.',
    required: true,
    schema: { type: "string" },
  },
  "Cache-Control": {
    description:
      "`private, no-cache`: a client may keep the response, but must revalidate it (If-None-Match) before each use.",
    required: true,
    schema: { type: "string", enum: ["private, no-cache"] },
  },
} satisfies Record<string, Header>;

export const CONDITIONAL_PARAMETERS = {
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
      "Change the record only if it has not changed since you read it: an `ETag` from a `GET` that showed it (a list or the record), or `*` for any existing record. When it changed since, the answer is 412 `precondition_failed` and nothing is done. Weak tags (`W/`) and malformed values never match. Without the header the update goes ahead as always.",
    schema: { type: "string" },
    example: '"42-9f86d081884c7d65"',
  },
} satisfies Record<string, Parameter>;

type HeaderName = keyof typeof CONDITIONAL_HEADERS;

/** The conditional request header an operation accepts. */
export function conditionalParameters(route: RestRoute): Reference[] {
  if (route.method === "GET" && route.versioned !== false)
    return [{ $ref: "#/components/parameters/IfNoneMatch" }];
  if (acceptsIfMatch(route)) return [{ $ref: "#/components/parameters/IfMatch" }];
  return [];
}

/** The conditional headers of a response with this status. */
export function conditionalHeaderNames(status: number, route: RestRoute): HeaderName[] {
  if (route.method === "GET" && route.versioned !== false && (status === 200 || status === 304))
    return ["ETag", "Cache-Control"];
  if (acceptsIfMatch(route) && status === 200) return ["ETag"];
  return [];
}

/** A GET's 304, for the operation's responses. */
export function notModifiedResponses(
  route: RestRoute,
  headers: Response["headers"],
): Record<string, Response> {
  if (route.method !== "GET" || route.versioned === false) return {};
  return {
    "304": {
      description:
        "Not Modified: `If-None-Match` named the current `ETag`. No body; keep using the response you have. Not counted against the rate limit.",
      headers,
    },
  };
}

/** For the reference's introduction. */
export const POLLING_SECTION = `## Polling efficiently

Every \`GET\` answers with a strong \`ETag\` and \`Cache-Control: private, no-cache\`. Keep the body and its \`ETag\`; next time, send the tag in \`If-None-Match\`. While nothing you can read has changed, the answer is \`304 Not Modified\` without a body, and it does not count against your rate limit (\`RateLimit-Remaining\` stays where it was). A tag changes whenever the body would.

\`\`\`sh
curl -si https://api.example.com/api/public/buyer/v1/orders?limit=100 -H "X-API-KEY: $KEY" | grep -i etag
# ETag: "42-9f86d081884c7d65"
curl -si https://api.example.com/api/public/buyer/v1/orders?limit=100 -H "X-API-KEY: $KEY" \\
  -H 'If-None-Match: "42-9f86d081884c7d65"'
# HTTP/1.1 304 Not Modified
\`\`\`

To change an order only if nobody changed it since you read it, send the \`ETag\` of the read in \`If-Match\`; if the order changed since, the answer is 412 \`precondition_failed\` and nothing is done. The \`PATCH\` response carries the order's new \`ETag\`.

\`\`\`sh
curl -si -X PATCH https://api.example.com/api/public/buyer/v1/orders/$ORDER_ID -H "X-API-KEY: $KEY" \\
  -H 'If-Match: "42-9f86d081884c7d65"' -H 'Content-Type: application/json' -d '{"order_status":"order_confirmed"}'
\`\`\``;
