import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type Problem, problemBody, problemResponse } from "../http/problem.js";
import { pickRequestId } from "../http/request-id.js";
import { addSecurityHeaders } from "../http/response-headers.js";

/**
 * Why a request the HTTP parser accepted cannot become a fetch `Request`
 * (whose URL is built from the target and the Host header), or null when it
 * can. Only origin-form targets (`/path?query`) name something this service
 * serves; `*` and absolute-form targets do not.
 */
export function malformedTarget(request: IncomingMessage): string | null {
  const target = request.url ?? "";
  if (!target.startsWith("/")) return "The request target must be a path starting with /";
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
  const problem: Problem = { status: 400, code: "bad_request", detail };
  const answer = decorated(problem, requestId);
  const body = problemBody(problem, requestId);
  response.shouldKeepAlive = false;
  response.writeHead(answer.status, {
    ...Object.fromEntries(answer.headers),
    "content-length": String(Buffer.byteLength(body)),
  });
  response.end(body);
  return requestId;
}

/**
 * Node's parser refuses some requests before any handler runs (headers over
 * its limit, bytes that are not HTTP). It would answer with an empty body;
 * this writes a problem body on the raw socket instead, then closes it.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Duplex): { status: number } | null {
  if (error.code === "ECONNRESET" || !socket.writable) {
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
  const answer = decorated(problem, requestId);
  const body = problemBody(problem, requestId);
  const head = [
    `HTTP/1.1 ${problem.status} ${answer.statusText}`,
    ...[...answer.headers].map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  return { status: problem.status };
}

function decorated(problem: Problem, requestId: string): Response {
  const response = problemResponse(problem, requestId);
  response.headers.set("x-request-id", requestId);
  addSecurityHeaders(response);
  return response;
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
