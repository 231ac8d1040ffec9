// What a client gets when Node's parser refuses its request before the app
// sees it: a problem body (431, 408 or 400) with a request id, one
// Content-Length and the security headers, then the connection closes.
import { Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeClientError } from "../../src/server/malformed-request.js";

/** A connection whose written bytes the test reads back. */
function connection(): Duplex & { written(): string } {
  const chunks: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(socket, { written: () => Buffer.concat(chunks).toString("latin1") });
}

const parserError = (code: string, rawPacket?: string) =>
  Object.assign(new Error(code), { code, ...(rawPacket ? { rawPacket: Buffer.from(rawPacket) } : {}) });

function answer(text: string): { statusLine: string; headers: Map<string, string>; body: string } {
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { statusLine, headers, body };
}

describe("a request the parser refuses", () => {
  it.each([
    [
      "HPE_HEADER_OVERFLOW",
      "HTTP/1.1 431 Request Header Fields Too Large",
      "request_header_fields_too_large",
    ],
    ["ERR_HTTP_REQUEST_TIMEOUT", "HTTP/1.1 408 Request Timeout", "request_timeout"],
    ["HPE_INVALID_METHOD", "HTTP/1.1 400 Bad Request", "bad_request"],
  ])("%s is answered %s with a problem body, and the connection closes", (code, statusLine, problemCode) => {
    const socket = connection();
    const outcome = writeClientError(parserError(code), socket, undefined);
    const sent = answer(socket.written());
    expect(sent.statusLine).toBe(statusLine);
    expect(sent.headers.get("connection")).toBe("close");
    expect(sent.headers.get("content-type")).toBe("application/problem+json");
    expect(sent.headers.get("content-length")).toBe(String(Buffer.byteLength(sent.body)));
    expect(sent.headers.get("x-content-type-options")).toBe("nosniff");
    const body = JSON.parse(sent.body) as { code: string; request_id: string };
    expect(body.code).toBe(problemCode);
    expect(sent.headers.get("x-request-id")).toBe(body.request_id);
    expect(outcome).toEqual({ status: Number(statusLine.split(" ")[1]), requestId: body.request_id });
    socket.destroy();
  });

  it("is answered without a body when it was a HEAD", () => {
    const socket = connection();
    writeClientError(parserError("HPE_HEADER_OVERFLOW", "HEAD /api HTTP/1.1\r\n"), socket, undefined);
    const sent = answer(socket.written());
    expect(sent.statusLine).toMatch(/^HTTP\/1\.1 431 /);
    expect(sent.body).toBe("");
    expect(Number(sent.headers.get("content-length"))).toBeGreaterThan(0);
    socket.destroy();
  });

  it("is answered once, however often the parser reports it again", () => {
    const socket = connection();
    writeClientError(parserError("HPE_INVALID_METHOD"), socket, undefined);
    const first = socket.written();
    expect(writeClientError(parserError("HPE_INVALID_METHOD"), socket, undefined)).toBeNull();
    expect(socket.written()).toBe(first);
    socket.destroy();
  });

  it("of a client that reset the connection gets no answer", () => {
    const socket = connection();
    expect(writeClientError(parserError("ECONNRESET"), socket, undefined)).toBeNull();
    expect(socket.written()).toBe("");
    expect(socket.destroyed).toBe(true);
  });
});
