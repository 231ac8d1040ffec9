// Requests the HTTP server refuses before they reach a route: each answer must
// be one an HTTP client can read (one Content-Length), carry a problem body and
// X-Request-Id, and, where fetch can send the request, reach fetch's caller as
// a response rather than a transport error.
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createMetrics } from "../../src/http/metrics.js";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const REQUEST_TIMEOUT_MS = 1_000;

interface RawAnswer {
  status: number;
  /** Header lines as sent, names lower-cased. */
  headers: [string, string][];
  body: string;
}

/**
 * Writes `bytes` (and holds the connection open without sending more), then
 * reads until the server closes the connection.
 */
function rawExchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer within 10 s: ${Buffer.concat(chunks).toString("latin1")}`));
    }, 10_000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => {
      clearTimeout(timer);
      const received = Buffer.concat(chunks).toString("latin1");
      const headEnd = received.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = received.slice(0, headEnd).split("\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
        headers: lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
        body: headEnd < 0 ? "" : received.slice(headEnd + 4),
      });
    });
    // A reset after the answer arrived still leaves the answer to check.
    socket.on("error", () => {});
    socket.write(bytes);
  });
}

/** What a client needs of a problem answer written outside the app. */
function expectReadableProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  const named = (name: string) =>
    answer.headers.filter(([header]) => header === name).map(([, value]) => value);
  expect(named("content-length")).toHaveLength(1);
  expect(named("transfer-encoding")).toEqual([]);
  expect(Buffer.byteLength(answer.body, "latin1")).toBe(Number(named("content-length")[0]));
  expect(named("content-type")).toEqual(["application/problem+json"]);
  const body = JSON.parse(answer.body) as { status: number; code: string; request_id: string };
  expect(body).toMatchObject({ status, code });
  expect(named("x-request-id")).toEqual([body.request_id]);
  expect(answer.body).not.toMatch(/\.ts|\.js|at /);
}

describe("requests the HTTP server refuses, over a real socket", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let http: HttpServer;
  let port: number;
  let baseUrl: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Parser");
    const logger = pino({ level: "info" }, { write: (line: string) => void logLines.push(line) });
    const config = loadConfig({});
    const metrics = createMetrics();
    const app = createApp({ config, database, logger, metrics });
    http = createHttpServer(app, {
      logger,
      metrics,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      writeTimeoutMs: config.responseWriteTimeoutMs,
    });
    await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
    port = (http.server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
  }, 180_000);
  afterAll(async () => {
    await http?.drain();
    await database?.close();
  });

  const bigHeader = `X-Big: ${"a".repeat(20_000)}`;
  const longCursor = `/api/public/buyer/v1/orders?cursor=${"a".repeat(70_000)}`;

  it.each([
    ["a header over the limit", `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${bigHeader}\r\n\r\n`, 431],
    ["a target over the limit", `GET ${longCursor} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 431],
    ["a malformed request line", "GET /healthz extra HTTP/1.1\r\nHost: localhost\r\n\r\n", 400],
    ["an invalid method", "BREW /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", 400],
    ["bytes that are not HTTP", "HELLO THERE\r\n\r\n", 400],
    [
      "Content-Length with Transfer-Encoding",
      "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
    ],
    [
      "a bad chunk",
      "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n",
      400,
    ],
    ["a NUL in the path", "GET /heal\0thz HTTP/1.1\r\nHost: localhost\r\n\r\n", 400],
    ["no Host header", "GET /healthz HTTP/1.1\r\n\r\n", 400],
    ["two Host headers", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n", 400],
    [
      "two different Host headers",
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n",
      400,
    ],
  ])("answers %s with one Content-Length and a problem body", async (_name, bytes, status) => {
    const answer = await rawExchange(port, bytes);
    expectReadableProblem(answer, status, status === 431 ? "request_header_fields_too_large" : "bad_request");
  });

  it("answers a HEAD with headers over the limit with 431 and no body", async () => {
    const answer = await rawExchange(
      port,
      `HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n${bigHeader}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toContainEqual(["content-type", "application/problem+json"]);
    expect(answer.headers.filter(([name]) => name === "x-request-id")).toHaveLength(1);
    expect(answer.body).toBe("");
  });

  it("answers a body that stalls past the request timeout with 408 and one Content-Length", async () => {
    const answer = await rawExchange(
      port,
      `POST /api/public/buyer/v1/suppliers/${buyer.supplierId}/users HTTP/1.1\r\nHost: localhost\r\n` +
        `X-API-KEY: ${buyer.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"first_name":`,
    );
    expectReadableProblem(answer, 408, "request_timeout");
  });

  it("answers headers that stall past the timeout with 408 and one Content-Length", async () => {
    const answer = await rawExchange(port, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
    expectReadableProblem(answer, 408, "request_timeout");
  });

  it("accepts an HTTP/1.0 request without Host, which HTTP/1.0 allows", async () => {
    const answer = await rawExchange(port, "GET /healthz HTTP/1.0\r\n\r\n");
    expect(answer.status).toBe(200);
  });

  it("cuts a connection whose response is under way rather than write a second answer into it", async () => {
    const query = JSON.stringify({ query: "subscription { orderUpdated { order { id } } }" });
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let text = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the connection stayed open: ${text}`));
      }, 10_000);
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => {
        const first = text === "";
        text += chunk;
        // The event stream has begun: now bytes that are not HTTP follow on the same connection.
        if (first) socket.write("HELLO THERE\r\n\r\n");
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on("error", () => {});
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${buyer.apiKey}\r\n` +
          `Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
          `Content-Length: ${query.length}\r\n\r\n${query}`,
      );
    });
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it("logs each refusal with its request id", async () => {
    const answer = await rawExchange(port, "HELLO AGAIN\r\n\r\n");
    const { request_id: requestId } = JSON.parse(answer.body) as { request_id: string };
    expect(logLines.filter((line) => line.includes(requestId) && line.includes('"status":400'))).toHaveLength(
      1,
    );
  });

  describe("as fetch sends them", () => {
    const expectProblem = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const body = (await response.json()) as { code: string; request_id: string };
      expect(body.code).toBe(code);
      expect(response.headers.get("x-request-id")).toBe(body.request_id);
    };

    it("reads the 431 for a header over the limit", async () => {
      const response = await fetch(`${baseUrl}/healthz`, { headers: { "x-big": "a".repeat(20_000) } });
      await expectProblem(response, 431, "request_header_fields_too_large");
    });

    it("reads the 431 for a 70,000-character cursor", async () => {
      const response = await fetch(`${baseUrl}${longCursor}`, { headers: { "x-api-key": buyer.apiKey } });
      await expectProblem(response, 431, "request_header_fields_too_large");
    });

    it("reads the 408 for a body that stalls past the request timeout", async () => {
      const encoder = new TextEncoder();
      let sent = false;
      // The start of a JSON body, then nothing more: the stream never ends.
      const stalling = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(encoder.encode('{"first_name":'));
            return;
          }
          return new Promise<void>(() => {});
        },
      });
      const response = await fetch(`${baseUrl}/api/public/buyer/v1/suppliers/${buyer.supplierId}/users`, {
        method: "POST",
        headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
        body: stalling,
        duplex: "half",
      } as RequestInit);
      await expectProblem(response, 408, "request_timeout");
    });
  });

  // Last: the requests above that the app had begun (a bad chunk, a stalled
  // body) end without an error logged, and the server answers on.
  it("keeps serving, with no error logged", async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logLines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
  });
});
