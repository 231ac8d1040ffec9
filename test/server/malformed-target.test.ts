// A request whose target or Host header no URL can be built from is answered
// 400 with a problem body before anything else sees it; a well-formed one
// passes. Over a real socket, through node:http, without the app.
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { malformedTarget, writeBadRequest } from "../../src/server/malformed-request.js";
import { headerValues, rawExchange, servedOnLoopback } from "../support/raw-http.js";

describe("a request target no URL can be built from", () => {
  const passed: string[] = [];
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    const malformed = malformedTarget(request);
    if (malformed) {
      writeBadRequest(request, response, malformed);
      return;
    }
    passed.push(request.url ?? "");
    response.writeHead(200, { connection: "close", "content-length": "2" }).end("ok");
  });
  const port = servedOnLoopback(server);

  it.each([
    ["a Host header with a space", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n"],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["an absolute-form target", "GET http://evil.example/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["a Host header with a path", "GET /healthz HTTP/1.1\r\nHost: localhost/x\r\n\r\n"],
    ["a Host header with a bracket", "GET /api/public/buyer/v1/orders HTTP/1.1\r\nHost: [\r\n\r\n"],
  ])("answers %s with 400 problem+json, a request id and no-store, and closes", async (_name, bytes) => {
    const before = passed.length;
    const answer = await rawExchange(port(), bytes);
    expect(answer.status).toBe(400);
    expect(headerValues(answer, "content-type")).toEqual(["application/problem+json"]);
    expect(headerValues(answer, "cache-control")).toEqual(["no-store"]);
    expect(headerValues(answer, "x-content-type-options")).toEqual(["nosniff"]);
    const body = JSON.parse(answer.body) as { status: number; code: string; request_id: string };
    expect(body).toMatchObject({ status: 400, code: "bad_request" });
    expect(headerValues(answer, "x-request-id")).toEqual([body.request_id]);
    expect(passed.length).toBe(before);
  });

  it("keeps a caller's sane X-Request-Id on the refusal", async () => {
    const answer = await rawExchange(
      port(),
      "OPTIONS * HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: trace-42\r\n\r\n",
    );
    expect(JSON.parse(answer.body)).toMatchObject({ request_id: "trace-42" });
  });

  it("passes a well-formed request on", async () => {
    const answer = await rawExchange(port(), "GET /healthz?x=1 HTTP/1.1\r\nHost: localhost:4000\r\n\r\n");
    expect(answer.status).toBe(200);
    expect(passed).toContain("/healthz?x=1");
  });
});
