/** Headers every response carries: the API returns data, never pages to frame or sniff. */
const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
};

/** API answers (JSON, and the multipart and event streams of /graphql) also forbid every kind of content and caching of personal data. */
const API_RESPONSE_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
};

const CORS_ALLOWED_HEADERS = "X-API-KEY, Content-Type, Idempotency-Key, X-Request-Id";
const CORS_EXPOSED_HEADERS =
  "Link, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed";

export function addSecurityHeaders(response: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (/json/.test(contentType)) {
    for (const [name, value] of Object.entries(API_RESPONSE_HEADERS)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
  } else if (/^(multipart\/mixed|text\/event-stream)/i.test(contentType)) {
    // Streams carry the same data; Yoga's own `no-cache` on event streams would still let it be stored.
    for (const [name, value] of Object.entries(API_RESPONSE_HEADERS)) response.headers.set(name, value);
  }
}

/** CORS for the configured origins only; with none configured, browsers on other origins are refused. */
export function createCors(allowedOrigins: string[]) {
  const allowsAny = allowedOrigins.includes("*");
  const allowed = (origin: string | null): origin is string =>
    origin !== null && (allowsAny || allowedOrigins.includes(origin));
  return {
    /** The answer to a preflight request, or null when the request is not one this service allows. */
    preflight(request: Request): Response | null {
      const origin = request.headers.get("origin");
      if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return null;
      if (!allowed(origin)) return new Response(null, { status: 403 });
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": "GET, POST, PATCH, OPTIONS",
          "access-control-allow-headers": CORS_ALLOWED_HEADERS,
          "access-control-max-age": "600",
          vary: "Origin",
        },
      });
    },
    decorate(request: Request, response: Response): void {
      const origin = request.headers.get("origin");
      if (!allowed(origin)) return;
      response.headers.set("access-control-allow-origin", origin);
      response.headers.set("access-control-expose-headers", CORS_EXPOSED_HEADERS);
      response.headers.append("vary", "Origin");
    },
  };
}
