import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** One canned answer of the floor server, captured from the gateway. */
export interface CannedResponse {
  method: string;
  /** The request target (path and query) it answers. */
  target: string;
  status: number;
  contentType: string;
  /** Base64, so that the bytes survive the trip through a JSON file unchanged. */
  bodyBase64: string;
}

interface PreparedResponse {
  method: string;
  target: string;
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
  const prepared: PreparedResponse[] = responses.map((response) => {
    const body = Buffer.from(response.bodyBase64, "base64");
    return {
      method: response.method,
      target: response.target,
      status: response.status,
      headers: { "content-type": response.contentType, "content-length": body.length },
      body,
    };
  });
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
      if (url === entry.target) {
        response.writeHead(entry.status, entry.headers).end(entry.body);
        return;
      }
    }
    response.writeHead(404, { "content-type": "application/json" }).end(notFound);
  };
}
