import { type IncomingMessage, ServerResponse, STATUS_CODES } from "node:http";

/**
 * A response that always writes a reason phrase in its status line. The
 * fetch adapter passes a Response's `statusText` to `writeHead`, and that is
 * empty for most responses (`Response.json`, `new Response(body)`), which
 * would put `HTTP/1.1 200 ` on the wire; an empty one becomes the standard
 * phrase for the status.
 */
export class ResponseWithReasonPhrase<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const [reason, ...more] = rest;
    const args = reason === "" ? [STATUS_CODES[statusCode] ?? "Unknown", ...more] : rest;
    return Reflect.apply(ServerResponse.prototype.writeHead, this, [statusCode, ...args]) as this;
  }
}
