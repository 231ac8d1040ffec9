import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** One canned answer of the floor server, captured from the gateway. */
export interface CannedResponse {
  method: string;
  /** The request target (path and query) it answers. */
  target: string;
  status: number;
  contentType: string;
  /** Set when the body is coded (br, gzip): sent to requests whose Accept-Encoding names it. */
  contentEncoding?: string;
  /** Base64, so that the bytes survive the trip through a JSON file unchanged. */
  bodyBase64: string;
}

interface PreparedResponse {
  method: string;
  target: string;
  contentEncoding?: string;
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

/**
 * The lower bound of any HTTP server on this machine: node:http writing bytes
 * it already holds. Nothing is parsed, computed or allocated per request
 * beyond what node:http itself does.
 */
export function createFloorListener(responses: CannedResponse[]): RequestListener {
  // Coded answers first: a request that accepts the coding gets those bytes, any other the plain ones.
  const prepared: PreparedResponse[] = responses
    .map((response) => {
      const body = Buffer.from(response.bodyBase64, "base64");
      const headers: Record<string, string | number> = {
        "content-type": response.contentType,
        "content-length": body.length,
      };
      if (response.contentEncoding) headers["content-encoding"] = response.contentEncoding;
      return {
        method: response.method,
        target: response.target,
        contentEncoding: response.contentEncoding,
        status: response.status,
        headers,
        body,
      };
    })
    .sort((a, b) => Number(b.contentEncoding !== undefined) - Number(a.contentEncoding !== undefined));
  const notFound = Buffer.from('{"status":404}');

  return (request: IncomingMessage, response: ServerResponse) => {
    // A request body is never needed; draining it keeps the connection reusable.
    request.resume();
    const url = request.url ?? "/";
    if (url === "/healthz") {
      response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    for (const entry of prepared) {
      if (entry.method !== request.method) continue;
      if (entry.contentEncoding && !request.headers["accept-encoding"]?.includes(entry.contentEncoding))
        continue;
      if (url === entry.target) {
        response.writeHead(entry.status, entry.headers).end(entry.body);
        return;
      }
    }
    response.writeHead(404, { "content-type": "application/json" }).end(notFound);
  };
}
