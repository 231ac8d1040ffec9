// Every status line the server writes carries a reason phrase, as HTTP/1.1
// clients and proxies expect: the fetch adapter hands Node an empty one for
// most responses, and an empty one would put "HTTP/1.1 200 " on the wire.

import { createServer, type ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ResponseWithReasonPhrase } from "../../src/server/reason-phrase.js";
import { rawStatusLine, servedOnLoopback } from "../support/raw-http.js";

/** The status line a raw client reads for a request to `path`. */
const statusLine = (port: number, path: string) =>
  rawStatusLine(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);

describe("the status line", () => {
  const server = createServer({ ServerResponse: ResponseWithReasonPhrase }, (request, response) => {
    const [, status = "200", reason] = (request.url ?? "").split("/");
    const answer = response as ServerResponse;
    // As the fetch adapter calls it: the Response's statusText, often "".
    if (reason === undefined) answer.writeHead(Number(status), "", { "content-length": "0" });
    else answer.writeHead(Number(status), decodeURIComponent(reason), { "content-length": "0" });
    answer.end();
  });
  const port = servedOnLoopback(server);

  it.each([
    ["/200", "HTTP/1.1 200 OK"],
    ["/404", "HTTP/1.1 404 Not Found"],
    ["/429", "HTTP/1.1 429 Too Many Requests"],
    ["/503", "HTTP/1.1 503 Service Unavailable"],
  ])("for an answer without a reason (%s) is %s", async (path, line) => {
    expect(await statusLine(port(), path)).toBe(line);
  });

  it("keeps a reason the answer gives", async () => {
    expect(await statusLine(port(), "/200/All%20good")).toBe("HTTP/1.1 200 All good");
  });

  it("says Unknown for a status without a standard phrase", async () => {
    expect(await statusLine(port(), "/599")).toBe("HTTP/1.1 599 Unknown");
  });
});
