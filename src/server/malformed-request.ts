import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type Problem, problemBody, problemResponse } from "../http/problem.js";
import { pickRequestId } from "../http/request-id.js";
import { addSecurityHeaders } from "../http/response-headers.js";

/**
 * Why a request the HTTP parser accepted cannot become a fetch `Request`
 * (whose URL is built from the target and the Host header), or null when it
 * can. Only origin-form targets (`/path?query`) name something this service
 * serves; `*` and absolute-form targets do not. An HTTP/1.1 request names its
 * host in exactly one Host header (RFC 9112 §3.2); HTTP/1.0 may leave it out.
 */
export function malformedTarget(request: IncomingMessage): string | null {
  const target = request.url ?? "";
  if (!target.startsWith("/")) return "The request target must be a path starting with /";
  const hostHeaders = request.rawHeaders.filter(
    (nameOrValue, index) => index % 2 === 0 && nameOrValue.toLowerCase() === "host",
  ).length;
  if (hostHeaders > 1) return "The request has more than one Host header";
  if (hostHeaders === 0 && request.httpVersion !== "1.0") return "The request has no Host header";
  const host = request.headers.host ?? "localhost";
  if (!URL.canParse(`http://${host}/`) || new URL(`http://${host}/`).pathname !== "/") {
    return "The Host header is not a valid host";
  }
  if (!URL.canParse(`http://localhost${target}`)) return "The request target is not a valid path";
  return null;
}

/** A 400 problem with the headers every answer carries, written without the app. */
export function writeBadRequest(request: IncomingMessage, response: ServerResponse, detail: string): string {
  const requestId = pickRequestId(headerValue(request.headers["x-request-id"]));
  const { headers, body } = problemAnswer({ status: 400, code: "bad_request", detail }, requestId);
  response.shouldKeepAlive = false;
  response.writeHead(400, Object.fromEntries(headers));
  response.end(body);
  return requestId;
}

/** How long a refused connection stays open for the client to read the answer and close its end. */
const LINGER_MS = 5_000;

/** Connections already answered by writeClientError. */
const answered = new WeakSet<Duplex>();

/**
 * Node's parser refuses some requests before any handler runs (headers over
 * its limit, bytes that are not HTTP), or while one runs (a bad chunk, a body
 * that stalls past the request timeout). It would answer with an empty body;
 * this writes a problem body on the raw socket instead, then closes it.
 * `inFlight` is the response of a request the app is handling on the socket:
 * once its headers are out, another answer would corrupt it, so the
 * connection is cut instead.
 */
export function writeClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  inFlight: ServerResponse | undefined,
): { status: number; requestId: string } | null {
  // The parser reports its error again for every later chunk of a refused
  // request; the answer is on its way, and a reset now could overtake it.
  if (answered.has(socket)) return null;
  if (
    error.code === "ECONNRESET" ||
    !socket.writable ||
    (inFlight?.headersSent === true && !inFlight.writableFinished)
  ) {
    socket.destroy();
    return null;
  }
  const problem: Problem =
    error.code === "HPE_HEADER_OVERFLOW"
      ? {
          status: 431,
          code: "request_header_fields_too_large",
          detail: "The request headers are larger than the server accepts",
        }
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? { status: 408, code: "request_timeout", detail: "The request took too long to arrive" }
        : { status: 400, code: "bad_request", detail: "The request is not valid HTTP/1.1" };
  const requestId = pickRequestId(null);
  const { statusText, headers, body } = problemAnswer(problem, requestId);
  // An answer to HEAD has no body (RFC 9110 §9.3.2): a client would read one as the start of its next answer.
  const content = isHead(error) ? "" : body;
  const head = [
    `HTTP/1.1 ${problem.status} ${statusText}`,
    ...[...headers].map(([name, value]) => `${name}: ${value}`),
    "connection: close",
  ];
  answered.add(socket);
  socket.end(`${head.join("\r\n")}\r\n\r\n${content}`);
  // Closing at once, with the rest of the request unread, would reset the
  // connection, and a client still sending may lose the answer; most clients
  // close their end once they have read it.
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once("close", () => clearTimeout(linger));
  return { status: problem.status, requestId };
}

/**
 * Whether the refused request is a HEAD. The parser failed before it named
 * the method, so it is read from the bytes it was parsing: the request's
 * start when the request came in one piece, as clients send headers. Bytes
 * from the middle of a request start with no method, and are answered as a
 * GET would be.
 */
function isHead(error: NodeJS.ErrnoException & { rawPacket?: unknown }): boolean {
  const { rawPacket } = error;
  return Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString("latin1") === "HEAD ";
}

/** A problem's status text, headers (those every answer carries, and one Content-Length) and body. */
function problemAnswer(
  problem: Problem,
  requestId: string,
): { statusText: string; headers: Headers; body: string } {
  const response = problemResponse(problem, requestId);
  response.headers.set("x-request-id", requestId);
  addSecurityHeaders(response);
  const body = problemBody(problem, requestId);
  // Headers.set replaces a length the Response may already carry: two would make clients refuse the answer.
  response.headers.set("content-length", String(Buffer.byteLength(body)));
  return { statusText: response.statusText, headers: response.headers, body };
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
