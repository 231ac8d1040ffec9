/** Where a request comes from and which origin its links must name, as configuration allows. */
export interface RequestOrigin {
  /**
   * The request's URL with the configured public origin (or, when a proxy is
   * trusted, the one it forwarded): never the origin the Host header claims.
   */
  publicUrl(request: Request): URL;
  /**
   * The client's address: the socket's peer, or the address a trusted proxy
   * reports; null for a request that came through no socket (`app.fetch`).
   */
  clientAddress(request: Request, socketAddress: string | undefined): string | null;
}

const PROTOCOLS = new Set(["http", "https"]);

/** The last value of a comma-separated header: the one the nearest (trusted) proxy added. */
function lastValue(header: string | null): string | null {
  const value = header?.split(",").pop()?.trim();
  return value ? value : null;
}

function forwardedOrigin(request: Request): string | null {
  const protocol = lastValue(request.headers.get("x-forwarded-proto"))?.toLowerCase();
  const host = lastValue(request.headers.get("x-forwarded-host"));
  if (!protocol || !PROTOCOLS.has(protocol) || !host) return null;
  const candidate = `${protocol}://${host}`;
  if (!URL.canParse(candidate)) return null;
  const url = new URL(candidate);
  // Only a bare host[:port]: anything else (a path, credentials) is not a proxy's doing.
  const bare = url.pathname === "/" && !url.username && !url.password && !url.search && !url.hash;
  return bare ? url.origin : null;
}

export function createRequestOrigin(options: { publicBaseUrl: string; trustProxy: boolean }): RequestOrigin {
  const configured = new URL(options.publicBaseUrl).origin;
  return {
    publicUrl(request) {
      const received = new URL(request.url);
      const url = new URL((options.trustProxy && forwardedOrigin(request)) || configured);
      // Copied part by part: a path such as `//evil.example/x` must stay a path.
      url.pathname = received.pathname;
      url.search = received.search;
      return url;
    },
    clientAddress(request, socketAddress) {
      const forwarded = options.trustProxy ? lastValue(request.headers.get("x-forwarded-for")) : null;
      return forwarded ?? socketAddress ?? null;
    },
  };
}
