// The app's edge: requests no URL can be built from and requests Node's parser
// refuses, over a real socket (each answer one an HTTP client can read: one
// Content-Length, a problem body and X-Request-Id; where fetch can send the
// request, a response rather than a transport error); the links' origin;
// unauthenticated load; client aborts and open subscriptions; the response
// headers every answer carries (security, caching, CORS); GET /metrics; and
// the service's basics (health, keys, HEAD, route labels).
// Each part boots its own app on a database of its own.
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { type AppConfig, loadConfig } from "../../src/config.js";
import { createMetrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.js";
import { eventually } from "../support/eventually.js";
import { withinOneWindow } from "../support/rate-limit-window.js";
import { headerValues, type RawAnswer, rawExchange } from "../support/raw-http.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const API = "/api/public/buyer/v1";

function config(overrides: Partial<AppConfig> = {}): AppConfig {
  return { ...loadConfig({}), ...overrides };
}

/** Fixed one-minute windows: start a counting test well inside one. */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}

const REQUEST_TIMEOUT_MS = 1_000;

/** What a client needs of a problem answer written outside the app. */
function expectReadableProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(headerValues(answer, "content-length")).toHaveLength(1);
  expect(headerValues(answer, "transfer-encoding")).toEqual([]);
  expect(Buffer.byteLength(answer.body, "latin1")).toBe(Number(headerValues(answer, "content-length")[0]));
  expect(headerValues(answer, "content-type")).toEqual(["application/problem+json"]);
  const body = JSON.parse(answer.body) as { status: number; code: string; request_id: string };
  expect(body).toMatchObject({ status, code });
  expect(headerValues(answer, "x-request-id")).toEqual([body.request_id]);
  expect(answer.body).not.toMatch(/\.ts|\.js|at /);
}

describe("requests no URL can be built from, over a real socket", () => {
  let database: TestDatabase;
  let http: HttpServer;
  let port: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const logger = pino(
      { level: "info" },
      {
        write: (line: string) => {
          logLines.push(line);
        },
      },
    );
    const metrics = createMetrics();
    const app = createApp({ config: config(), database, logger, metrics });
    http = createHttpServer(app, {
      logger,
      metrics,
      requestTimeoutMs: 30_000,
      writeTimeoutMs: config().responseWriteTimeoutMs,
    });
    await new Promise<void>((resolve) => http.server.listen(0, "127.0.0.1", resolve));
    port = (http.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await http?.drain();
    await database?.close();
  });

  it.each([
    ["a Host header with a space", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n"],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["an absolute-form target", "GET http://evil.example/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["a Host header with a path", "GET /healthz HTTP/1.1\r\nHost: localhost/x\r\n\r\n"],
    ["a Host header with a bracket", "GET /api/public/buyer/v1/orders HTTP/1.1\r\nHost: [\r\n\r\n"],
  ])("answers %s with 400 problem+json, the usual headers, and a log line", async (_name, bytes) => {
    const response = await rawExchange(port, bytes);
    expect(response.status).toBe(400);
    expect(headerValues(response, "content-type")).toEqual(["application/problem+json"]);
    expect(headerValues(response, "x-request-id")).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(headerValues(response, "x-content-type-options")).toEqual(["nosniff"]);
    expect(headerValues(response, "cache-control")).toEqual(["no-store"]);
    const body = JSON.parse(response.body) as { code: string; status: number; request_id: string };
    expect(body).toMatchObject({ status: 400, code: "bad_request" });
    expect(response.body).not.toMatch(/\.ts|\.js|at /);
    expect(logLines.some((line) => line.includes(body.request_id) && line.includes('"status":400'))).toBe(
      true,
    );
  });

  it("answers headers over Node's limit with 431 and a problem body", async () => {
    const response = await rawExchange(
      port,
      `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(headerValues(response, "content-type")).toEqual(["application/problem+json"]);
    expect(headerValues(response, "x-request-id")).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(JSON.parse(response.body)).toMatchObject({ status: 431, code: "request_header_fields_too_large" });
  });

  it("answers bytes that are not HTTP with 400 and a problem body", async () => {
    const response = await rawExchange(port, "HELLO THERE\r\n\r\n");
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("keeps serving well-formed requests", async () => {
    const response = await rawExchange(
      port,
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    expect(response.status).toBe(200);
  });
});

describe("links name the configured public origin, never the Host header", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Links");
    await seedOrders(
      database,
      buyer,
      [1, 2, 3].map((minute) => ({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, minute)) })),
    );
  });
  afterAll(async () => {
    await database?.close();
  });

  const linkOf = async (app: App, headers: Record<string, string> = {}) => {
    const response = await app.fetch(`http://evil.example${API}/orders?limit=1`, {
      headers: { "x-api-key": buyer.apiKey, ...headers },
    });
    expect(response.status).toBe(200);
    return response.headers.get("link") ?? "";
  };

  it("uses PUBLIC_BASE_URL whatever the Host header or X-Forwarded-* say", async () => {
    const app = createApp({
      config: config({ publicBaseUrl: "https://api.example.com" }),
      database,
      logger: createLogger("silent"),
    });
    const forwarded = { "x-forwarded-proto": "http", "x-forwarded-host": "evil.example" };
    for (const link of [await linkOf(app), await linkOf(app, forwarded)]) {
      expect(link).toMatch(
        /^<https:\/\/api\.example\.com\/api\/public\/buyer\/v1\/orders\?limit=1&cursor=[^>]+>; rel="next"$/,
      );
    }
  });

  it("uses a trusted proxy's X-Forwarded-Proto and X-Forwarded-Host when TRUST_PROXY is on", async () => {
    const app = createApp({
      config: config({ publicBaseUrl: "http://localhost:4000", trustProxy: true }),
      database,
      logger: createLogger("silent"),
    });
    const link = await linkOf(app, {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "buyer-api.example.org",
    });
    expect(link).toMatch(/^<https:\/\/buyer-api\.example\.org\/api\/public\/buyer\/v1\/orders\?/);
    // A forwarded host that is not a bare host falls back to the configured origin.
    const odd = await linkOf(app, { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example/x?" });
    expect(odd).toMatch(/^<http:\/\/localhost:4000\/api\//);
  });

  it("keeps a path that looks like an authority a path", async () => {
    const app = createApp({
      config: config({ publicBaseUrl: "https://api.example.com" }),
      database,
      logger: createLogger("silent"),
    });
    const response = await app.fetch("http://localhost//evil.example/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(response.status).toBe(404);
  });
});

describe("unauthenticated load", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let app: App;
  const limit = 5;
  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Guesses");
    app = createApp({
      config: config({ authFailuresPerMinute: limit }),
      database,
      logger: createLogger("silent"),
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  const guess = (address: string, path: string, key = "bpk_guess_000000000000000000000000000") =>
    app.fetch(
      new Request(`http://localhost${path}`, {
        method: path === "/graphql" ? "POST" : "GET",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: path === "/graphql" ? JSON.stringify({ query: "{ orders { totalCount } }" }) : undefined,
      }),
      { clientAddress: address },
    );

  it("refuses an address with 429 and Retry-After once its failed authentications pass the limit", async () => {
    await awayFromMinuteBoundary();
    const knownKey = buyer.apiKey;
    expect((await guess("203.0.113.7", `${API}/orders`, knownKey)).status).toBe(200);
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const response = await guess("203.0.113.7", index % 2 ? "/graphql" : `${API}/orders`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(response.headers.get("x-request-id")).toBeTruthy();
        expect(((await response.json()) as { code: string }).code).toBe("rate_limited");
      }
    }
    expect(statuses).toEqual([...Array(limit).fill(401), ...Array(12 - limit).fill(429)]);
    // A colleague behind the same address whose key this process knows keeps working; a new guess does not.
    expect((await guess("203.0.113.7", `${API}/orders`, knownKey)).status).toBe(200);
    expect((await guess("203.0.113.7", "/graphql", "bpk_guess_111111111111111111111111111")).status).toBe(
      429,
    );
    // Another address is not affected, and neither is a valid key from it.
    expect((await guess("198.51.100.1", `${API}/orders`)).status).toBe(401);
    expect((await guess("198.51.100.1", `${API}/orders`, buyer.apiKey)).status).toBe(200);
  });

  it("refuses a wrong key on /graphql before reading the body", async () => {
    // A body that never ends: reading it would never finish.
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const response = await app.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: {
          "x-api-key": "bpk_wrong_0000000000000000000000000000",
          "content-type": "application/json",
        },
        body: endless,
        duplex: "half",
      } as RequestInit),
      { clientAddress: "192.0.2.50" },
    );
    expect(response.status).toBe(401);
    expect(
      ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
    ).toBe("UNAUTHENTICATED");
  });

  it("refuses GraphQL bodies over 1 MiB with 413, with or without a key", async () => {
    const query = `{ __typename ${" ".repeat(1024 * 1024)}}`;
    const withAndWithoutKey: Record<string, string>[] = [{}, { "x-api-key": buyer.apiKey }];
    for (const headers of withAndWithoutKey) {
      const response = await app.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ query }),
        }),
        { clientAddress: "192.0.2.51" },
      );
      expect(response.status).toBe(413);
      const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe("REQUEST_ENTITY_TOO_LARGE");
    }
  });
});

describe("client aborts and open subscriptions", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Streams");
    const base = config();
    app = createApp({
      config: { ...base, graphql: { ...base.graphql, maxSubscriptionsPerKey: 2 } },
      database,
      logger: createLogger("silent"),
    });
  });
  afterAll(async () => {
    await app?.dispose();
    await database?.close();
  });

  it("counts a request whose client hung up as 499, not 500", async () => {
    const abort = new AbortController();
    // Like a socket closed mid-body: the body stream fails once the client is gone.
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) =>
        new Promise<void>((resolve) => {
          abort.signal.addEventListener("abort", () => {
            controller.error(new Error("aborted"));
            resolve();
          });
        }),
    });
    const answered = Promise.resolve(
      app.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
          body,
          signal: abort.signal,
          duplex: "half",
        } as RequestInit),
      ),
    );
    setTimeout(() => abort.abort(), 50);
    await answered.catch(() => undefined);
    // The fetch rejects at once on abort; the handler finishes and counts just after.
    const metrics = await eventually(async () => {
      const text = await (await app.fetch("http://localhost/metrics")).text();
      return /http_requests_total\{route="\/graphql",method="POST"/.test(text) ? text : null;
    });
    expect(metrics).toMatch(/http_requests_total\{route="\/graphql",method="POST",status="499"\} 1/);
    expect(metrics).not.toMatch(/http_requests_total\{route="\/graphql",method="POST",status="500"\}/);
  });

  it("refuses a key's subscription over GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY with CONCURRENCY_LIMIT_EXCEEDED", async () => {
    const open = () =>
      app.fetch("http://localhost/graphql", {
        method: "POST",
        headers: {
          accept: "text/event-stream",
          "content-type": "application/json",
          "x-api-key": buyer.apiKey,
        },
        body: JSON.stringify({ query: "subscription { orderUpdated { order { id } } }" }),
      });
    const firstEvent = async (response: Response) => {
      const reader = (response.body as ReadableStream<Uint8Array>)
        .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
        .getReader();
      let text = "";
      const deadline = Date.now() + 1_000;
      while (!/data:.*\n\n/.test(text) && Date.now() < deadline) {
        const next = await Promise.race([
          reader.read(),
          new Promise<{ done: true; value: undefined }>((resolve) =>
            setTimeout(() => resolve({ done: true, value: undefined }), 300),
          ),
        ]);
        if (next.done) break;
        text += next.value;
      }
      return { text, close: () => reader.cancel() };
    };
    const [first, second] = [await open(), await open()];
    expect([first.status, second.status]).toEqual([200, 200]);
    const [firstStream, secondStream] = [await firstEvent(first), await firstEvent(second)];
    const refused = await firstEvent(await open());
    expect(refused.text).toContain('"code":"CONCURRENCY_LIMIT_EXCEEDED"');
    // Ending one subscription frees its place.
    await firstStream.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await firstEvent(await open());
    expect(third.text).not.toContain("CONCURRENCY_LIMIT_EXCEEDED");
    await third.close();
    await secondStream.close();
  });
});

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
    expect(headerValues(answer, "x-request-id")).toHaveLength(1);
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

describe("response headers", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let closed: App;
  let open: App;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Headers");
    const base = loadConfig({});
    const make = (corsOrigins: string[]) =>
      createApp({
        config: { ...base, corsOrigins },
        database,
        logger: createLogger("silent"),
      });
    closed = make([]);
    open = make(["https://buyer.example.com"]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("carry the standard security headers, and let only the client keep API data, revalidating it", async () => {
    const response = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "cache-control": "private, no-cache",
    });
    const refused = await closed.fetch("http://localhost/api/public/buyer/v1/orders?limit=0", {
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  it("allow no browser origin by default", async () => {
    const preflight = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(403);
    const response = await closed.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://evil.example.com" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("let configured origins call the API, reading the paging and rate-limit headers", async () => {
    const preflight = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "OPTIONS",
      headers: {
        origin: "https://buyer.example.com",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "x-api-key, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/X-API-KEY/);
    const response = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://buyer.example.com" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    expect(response.headers.get("access-control-expose-headers")).toMatch(/Link.*RateLimit-Remaining/);
    const other = await open.fetch("http://localhost/api/public/buyer/v1/orders", {
      headers: { "x-api-key": buyer.apiKey, origin: "https://other.example.com" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("gives an answer from the response cache only its own request's CORS and rate-limit headers", async () => {
    const read = (origin: string) =>
      open.fetch("http://localhost/api/public/buyer/v1/orders?limit=3", {
        headers: { "x-api-key": buyer.apiKey, origin },
      });
    await withinOneWindow();
    const first = await read("https://buyer.example.com");
    const second = await read("https://buyer.example.com");
    expect(second.headers.get("access-control-allow-origin")).toBe("https://buyer.example.com");
    const other = await read("https://other.example.com");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(Number(other.headers.get("ratelimit-remaining"))).toBe(
      Number(first.headers.get("ratelimit-remaining")) - 2,
    );
  });
});

describe("GET /metrics", () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let open: App;
  let guarded: App;
  const token = "metrics-token-0123456789";

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Metrics");
    const base = loadConfig({});
    const logger = createLogger("silent");
    open = createApp({ config: base, database, logger });
    guarded = createApp({ config: { ...base, metricsToken: token }, database, logger });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts requests by route and status, latency, and GraphQL operations, in Prometheus format", async () => {
    const key = { "x-api-key": buyer.apiKey };
    await open.fetch("http://localhost/api/public/buyer/v1/orders", { headers: key });
    await open.fetch(`http://localhost/api/public/buyer/v1/orders/${buyer.approvalId}`, {
      method: "PATCH",
      headers: { ...key, "content-type": "application/json" },
      body: "{}",
    });
    await open.fetch("http://localhost/no/such/path/123");
    await open.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ orders { edges { node { id } } } }" }),
    });
    const response = await open.fetch("http://localhost/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders",method="GET",status="200"} 1',
    );
    expect(text).toContain(
      'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="PATCH",status="404"} 1',
    );
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/public\/buyer\/v1\/orders",method="GET"\} 1/,
    );
    expect(text).toContain('graphql_operations_total{type="query",outcome="ok"} 1');
    expect(text).toContain("process_resident_memory_bytes");
  });

  it("needs the bearer token when METRICS_TOKEN is set", async () => {
    expect((await guarded.fetch("http://localhost/metrics")).status).toBe(401);
    const wrong = await guarded.fetch("http://localhost/metrics", {
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    const right = await guarded.fetch("http://localhost/metrics", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.status).toBe(200);
  });
});

describe("service basics", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Basics");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("answers /healthz without a key", async () => {
    const response = await callApi(harness.app, "GET", "http://localhost/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });

  it("answers /readyz with 200 while the database answers", async () => {
    const response = await callApi(harness.app, "GET", "http://localhost/readyz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ready" });
  });

  it("refuses GraphQL without a valid key: HTTP 401 with code UNAUTHENTICATED", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "bpk_not_a_real_key_000000000000000000" },
      body: JSON.stringify({ query: "{ orders { edges { node { id } } } }" }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe("UNAUTHENTICATED");
  });

  it("serves GraphQL to a valid key from the same schema as REST", async () => {
    const response = await harness.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey },
      body: JSON.stringify({
        query: "{ buyerProductApprovals { edges { node { id: databaseId approvalStatus } } } }",
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      data: {
        buyerProductApprovals: { edges: [{ node: { id: buyer.approvalId, approvalStatus: "APPROVED" } }] },
      },
    });
  });

  it("stops accepting a key as soon as it is revoked", async () => {
    expect((await callApi(harness.app, "GET", "/orders", { key: buyer.apiKey })).status).toBe(200);
    await harness.database.prisma.apiKey.update({
      where: { id: buyer.apiKeyId },
      data: { revokedAt: new Date() },
    });
    const refused = await callApi(harness.app, "GET", "/orders", { key: buyer.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "unauthenticated" });
  });

  it("records when a key was last used", async () => {
    const other = await seedBuyer(harness.database, "Usage");
    await callApi(harness.app, "GET", "/orders", { key: other.apiKey });
    // The stamp is written beside the response, not before it.
    const lastUsedAt = await eventually(
      async () =>
        (await harness.database.prisma.apiKey.findUniqueOrThrow({ where: { id: other.apiKeyId } }))
          .lastUsedAt,
    );
    expect(lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("HTTP niceties", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Niceties");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("answers HEAD wherever GET works", async () => {
    const head = await harness.app.fetch("http://localhost/api/public/buyer/v1/orders", {
      method: "HEAD",
      headers: { "x-api-key": buyer.apiKey },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toBeNull();
    expect(head.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("tells a client without a key how to authenticate", async () => {
    const response = await callApi(harness.app, "GET", "/orders");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('ApiKey realm="buyer-api", header="X-API-KEY"');
  });
});

describe("route labels", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Labels");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("counts each request under its route template in /metrics: pages, the document, the API, and unmatched", async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      harness.app.fetch(`http://localhost${path}`, { headers });
    await get("/");
    await get("/api/public/buyer/v1/openapi.json");
    await get("/docs/");
    await get(`/api/public/buyer/v1/orders/${buyer.approvalId}`, { "x-api-key": buyer.apiKey });
    await get("/api/public/buyer/v1/purchase_orders", { "x-api-key": buyer.apiKey });
    await get("/wp-login.php");
    const text = await (await get("/metrics")).text();
    const counted = text
      .split("\n")
      .filter((line) => line.startsWith("http_requests_total{"))
      .map((line) => line.replace(/ \d+$/, ""));
    expect(counted).toEqual(
      expect.arrayContaining([
        'http_requests_total{route="/",method="GET",status="200"}',
        'http_requests_total{route="/api/public/buyer/v1/openapi.json",method="GET",status="200"}',
        'http_requests_total{route="/docs/",method="GET",status="308"}',
        'http_requests_total{route="/api/public/buyer/v1/orders/{id}",method="GET",status="404"}',
        'http_requests_total{route="unmatched",method="GET",status="404"}',
      ]),
    );
    // The unmatched API path and the scanner's guess share one series.
    expect(text).toMatch(/^http_requests_total\{route="unmatched",method="GET",status="404"\} 2$/m);
  });
});
