// Clients that read large answers slowly, or not at all, over real sockets: the write timeout
// closes them, an expensive request counts against its key until its answer has been sent, and
// one key's expensive reads wait their turn, bounded, while another key's are served
// (src/http/expensive-work.ts, src/http/fair-turns.ts).
// A paused socket holds an answer open for as long as a test needs: nothing here waits on a clock
// but the write timeout itself.
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createMetrics } from "../../src/http/metrics.js";
import { createLogger } from "../../src/logger.js";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.js";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { ORDER_COUNT, REFERENCE_LENGTH, seedSlowReaders } from "../support/slow-reader-data.js";
import { testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const ORDERS = "/api/public/buyer/v1/orders";
const LARGEST_ORDERS_QUERY = `{ orders(first: 500) { edges { node { id purchaseOrderReference } } } }`;

interface Served {
  port: number;
  /** The most bytes any of the server's own sockets holds unsent, in its buffer beyond the kernel's. */
  unsentBytes(): number;
  metric(name: string): Promise<number>;
  /** A GET of the API with the key, read whole: its status and Retry-After. */
  get(path: string, apiKey: string): Promise<{ status: number; retryAfter: string | null }>;
  graphql(query: string, apiKey: string): Promise<{ status: number; retryAfter: string | null }>;
}

/** A client that sends one request and reads nothing until told to. */
interface SlowReader {
  socket: Socket;
  /** Starts reading; resolves with the bytes read when the connection ends, however it ends. */
  readToEnd(): Promise<number>;
  /** Starts reading; resolves with the answer's head and body once the connection ends. */
  readAnswer(): Promise<{ head: string; body: Buffer }>;
}

function slowReader(port: number, request: string): SlowReader {
  const socket = connect(port, "127.0.0.1");
  socket.pause();
  socket.on("error", () => {});
  socket.write(request);
  return {
    socket,
    readToEnd() {
      let bytes = 0;
      socket.on("data", (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      const ended = new Promise<number>((resolve) => socket.once("close", () => resolve(bytes)));
      socket.resume();
      return ended;
    },
    readAnswer() {
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise<{ head: string; body: Buffer }>((resolve) =>
        socket.once("close", () => {
          const whole = Buffer.concat(chunks);
          const split = whole.indexOf("\r\n\r\n");
          resolve({ head: whole.subarray(0, split).toString("latin1"), body: whole.subarray(split + 4) });
        }),
      );
      socket.resume();
      return ended;
    },
  };
}

function getRequest(path: string, apiKey: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${apiKey}\r\nConnection: close\r\n\r\n`;
}

/** The Content-Length of an answer's head. */
function contentLength(head: string): number {
  return Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? Number.NaN);
}

function graphqlRequest(query: string, apiKey: string): string {
  const body = JSON.stringify({ query });
  return (
    `POST /graphql HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${apiKey}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** An app over `database` behind the real HTTP server, with `settings` over the defaults. */
function serve(
  database: () => TestDatabase,
  settings: {
    writeTimeoutMs: number;
    maxConcurrentExpensivePerKey: number;
    /** None by default: past its bound, a key's expensive request is refused at once. */
    maxWaitingExpensivePerKey?: number;
    maxSendingBytesPerKey?: number;
  },
): Served {
  let http: HttpServer | undefined;
  let port = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    const logger = createLogger("silent");
    const metrics = createMetrics();
    const app = createApp({
      metrics,
      config: testConfig({
        maxConcurrentExpensivePerKey: settings.maxConcurrentExpensivePerKey,
        maxWaitingExpensivePerKey: settings.maxWaitingExpensivePerKey ?? 0,
        ...(settings.maxSendingBytesPerKey ? { maxSendingBytesPerKey: settings.maxSendingBytesPerKey } : {}),
        graphql: {
          work: { timeoutMs: 15_000, expensiveCost: 100 },
        },
      }),
      database: database(),
      logger,
    });
    http = createHttpServer(app, {
      logger,
      metrics,
      requestTimeoutMs: 30_000,
      writeTimeoutMs: settings.writeTimeoutMs,
    });
    http.server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => http?.server.listen(0, "127.0.0.1", resolve));
    port = (http.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    http?.server.closeAllConnections();
    await http?.drain();
  });
  const answer = async (response: Response) => {
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get("retry-after") };
  };
  return {
    get port() {
      return port;
    },
    unsentBytes: () => Math.max(0, ...[...sockets].map((socket) => socket.writableLength)),
    async metric(name) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? Number.NaN);
    },
    get: async (path, apiKey) =>
      answer(await fetch(`http://127.0.0.1:${port}${path}`, { headers: { "x-api-key": apiKey } })),
    graphql: async (query, apiKey) =>
      answer(
        await fetch(`http://127.0.0.1:${port}/graphql`, {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ query }),
        }),
      ),
  };
}

/** Orders whose references are characters outside the BMP (two UTF-16 units each), of varying length. */
const ASTRAL_ORDER_COUNT = 200;
const astralReference = (index: number) => `PO-${index}-${"\u{1F600}".repeat(2_000 + index)}`;
const astralOrders = () =>
  Array.from({ length: ASTRAL_ORDER_COUNT }, (_, index) => ({
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
    purchaseOrderReference: astralReference(index),
  }));

describe("slow readers of large answers", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let astral: SeededBuyer;
  beforeAll(async () => {
    database = await createTestDatabase();
    ({ buyer, other } = await seedSlowReaders(database));
    astral = await seedBuyer(database, "Astral");
    await seedOrders(database, astral, astralOrders());
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  describe("with a short write timeout and one expensive request per key", () => {
    const server = serve(() => database, { writeTimeoutMs: 1_000, maxConcurrentExpensivePerKey: 1 });

    it.each([
      [
        "a REST page",
        () => getRequest(`${ORDERS}?limit=500`, buyer.apiKey),
        () => server.get(`${ORDERS}?limit=499`, buyer.apiKey),
      ],
      [
        "a GraphQL answer",
        () => graphqlRequest(LARGEST_ORDERS_QUERY, buyer.apiKey),
        () => server.graphql(`{ orders(first: 499) { edges { node { id } } } }`, buyer.apiKey),
      ],
    ])(
      "holds the key's slot while %s is unread, then closes the connection and frees it",
      async (_name, request, expensive) => {
        const timeoutsBefore = await server.metric("http_write_timeouts_total");
        const reader = slowReader(server.port, request());
        // The answer is ready and waits for its reader: its bytes are counted as being sent.
        await eventually(
          async () => ((await server.metric("http_sending_bytes")) > 4_000_000 ? true : null),
          60_000,
        );
        const refused = await expensive();
        expect(refused.status).toBe(429);
        expect(refused.retryAfter).toBe("1");
        // Another buyer's expensive read is served meanwhile.
        expect((await server.get(`${ORDERS}?limit=500`, other.apiKey)).status).toBe(200);

        await eventually(
          async () => ((await server.metric("http_write_timeouts_total")) > timeoutsBefore ? true : null),
          30_000,
        );
        expect(await server.metric("http_sending_bytes")).toBe(0);
        expect((await expensive()).status).toBe(200);
        // The client got part of the answer before its connection was closed.
        expect(await reader.readToEnd()).toBeLessThan(ORDER_COUNT * REFERENCE_LENGTH);
      },
    );
  });

  describe("answers sent in parts as the reader reads", () => {
    const server = serve(() => database, { writeTimeoutMs: 60_000, maxConcurrentExpensivePerKey: 1 });

    it.each([
      [
        "a REST page",
        () => getRequest(`${ORDERS}?limit=500`, buyer.apiKey),
        () => server.get(`${ORDERS}?limit=499`, buyer.apiKey),
        (answer: unknown[]) => answer.length,
      ],
      [
        "a GraphQL answer",
        () => graphqlRequest(LARGEST_ORDERS_QUERY, buyer.apiKey),
        () => server.graphql(`{ orders(first: 499) { edges { node { id } } } }`, buyer.apiKey),
        (answer: { data?: { orders?: { edges?: unknown[] } } }) => answer.data?.orders?.edges?.length,
      ],
    ])(
      "holds %s's turn and a part of its bytes while it is unread, sends it whole once read, then gives the turn back",
      async (_name, request, expensive, items) => {
        const reader = slowReader(server.port, request());
        // The answer is made and waits for its reader.
        await eventually(
          async () => ((await server.metric("http_sending_bytes")) > 4_000_000 ? true : null),
          60_000,
        );
        // Only the part being written waits in the server's socket, not the rest of the answer.
        expect(server.unsentBytes()).toBeLessThan(1024 * 1024);
        // The key's one turn is held until the answer has gone: its next expensive request is refused.
        const refused = await expensive();
        expect(refused.status).toBe(429);
        expect(refused.retryAfter).toBe("1");

        const { head, body } = await reader.readAnswer();
        expect(head).toMatch(/^HTTP\/1\.1 200/);
        expect(body.byteLength).toBe(contentLength(head));
        expect(body.byteLength).toBeGreaterThan(ORDER_COUNT * REFERENCE_LENGTH);
        expect(items(JSON.parse(body.toString("utf8")))).toBe(ORDER_COUNT);
        await eventually(async () => ((await server.metric("http_sending_bytes")) === 0 ? true : null));
        expect((await expensive()).status).toBe(200);
      },
    );

    it.each([
      [
        "a REST page",
        () =>
          fetch(`http://127.0.0.1:${server.port}${ORDERS}?limit=${ASTRAL_ORDER_COUNT}`, {
            headers: { "x-api-key": astral.apiKey, "accept-encoding": "identity" },
          }),
        (answer: { purchase_order_reference: string }[]) =>
          answer.map((order) => order.purchase_order_reference),
      ],
      [
        "a GraphQL answer",
        () =>
          fetch(`http://127.0.0.1:${server.port}/graphql`, {
            method: "POST",
            headers: {
              "x-api-key": astral.apiKey,
              "content-type": "application/json",
              "accept-encoding": "identity",
            },
            body: JSON.stringify({
              query: `{ orders(first: ${ASTRAL_ORDER_COUNT}) { edges { node { purchaseOrderReference } } } }`,
            }),
          }),
        (answer: { data: { orders: { edges: { node: { purchaseOrderReference: string } }[] } } }) =>
          answer.data.orders.edges.map((edge) => edge.node.purchaseOrderReference),
      ],
    ])("sends %s of characters outside the BMP intact across its parts", async (_name, ask, references) => {
      const response = await ask();
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(bytes.byteLength).toBe(Number(response.headers.get("content-length")));
      expect(bytes.includes(Buffer.from("\uFFFD", "utf8"))).toBe(false);
      const expected = Array.from({ length: ASTRAL_ORDER_COUNT }, (_, index) => astralReference(index));
      expect(references(JSON.parse(bytes.toString("utf8"))).sort()).toEqual(expected.sort());
    });
  });

  describe("with the default bounds on a key's expensive work", () => {
    const server = serve(() => database, {
      writeTimeoutMs: 60_000,
      maxConcurrentExpensivePerKey: 2,
      maxWaitingExpensivePerKey: 16,
    });

    it("answers 32 slow readers of the largest GraphQL answer two at a time, queues sixteen, refuses the rest, and keeps memory bounded", async () => {
      const readers = 32;
      const refusedBefore = await server.metric("expensive_work_refused_total");
      const rssBefore = process.memoryUsage().rss;
      const sockets = Array.from({ length: readers }, () =>
        slowReader(server.port, graphqlRequest(LARGEST_ORDERS_QUERY, buyer.apiKey)),
      );
      // Two answers made and unread hold the key's places; sixteen requests wait; the others are refused at once.
      await eventually(
        async () =>
          (await server.metric("expensive_work_refused_total")) - refusedBefore === readers - 18 &&
          (await server.metric("expensive_work_waiting")) === 16 &&
          (await server.metric("http_sending_bytes")) > 2 * 4_000_000
            ? true
            : null,
        60_000,
      );
      expect(await server.metric("expensive_work_running")).toBe(2);
      // Two answers' bytes, not a third.
      expect(await server.metric("http_sending_bytes")).toBeLessThan(3 * ORDER_COUNT * REFERENCE_LENGTH);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
      // Another buyer's expensive GraphQL read is served meanwhile.
      expect(
        (await server.graphql(`{ orders(first: 499) { edges { node { id } } } }`, other.apiKey)).status,
      ).toBe(200);

      for (const reader of sockets) reader.socket.destroy();
      await eventually(
        async () =>
          (await server.metric("expensive_work_running")) === 0 &&
          (await server.metric("expensive_work_waiting")) === 0
            ? true
            : null,
        60_000,
      );
    });
  });

  describe("with a bound on the bytes a key may have on their way", () => {
    const server = serve(() => database, {
      writeTimeoutMs: 60_000,
      maxConcurrentExpensivePerKey: 10,
      maxSendingBytesPerKey: 1024 * 1024,
    });

    it("refuses the key's requests while an unread answer holds more, and serves other keys", async () => {
      const reader = slowReader(server.port, getRequest(`${ORDERS}?limit=500`, buyer.apiKey));
      await eventually(
        async () => ((await server.metric("http_sending_bytes")) > 4_000_000 ? true : null),
        60_000,
      );
      const refused = await server.get(`${ORDERS}?limit=450`, buyer.apiKey);
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe("1");
      expect((await server.get(`${ORDERS}?limit=5`, buyer.apiKey)).status).toBe(429);
      expect((await server.get(`${ORDERS}?limit=450`, other.apiKey)).status).toBe(200);
      // Once the answer has been read, the key's expensive reads are served again.
      expect(await reader.readToEnd()).toBeGreaterThan(ORDER_COUNT * REFERENCE_LENGTH);
      await eventually(async () => ((await server.metric("http_sending_bytes")) === 0 ? true : null));
      expect((await server.get(`${ORDERS}?limit=450`, buyer.apiKey)).status).toBe(200);
    });
  });

  describe("fair reads: one key's expensive reads wait their turn, bounded, while another key's are served", () => {
    const server = serve(() => database, {
      writeTimeoutMs: 60_000,
      maxConcurrentExpensivePerKey: 1,
      maxWaitingExpensivePerKey: 2,
    });

    it("queues the key's large pages behind its unread one, refuses one more with Retry-After, and serves another key", async () => {
      const reader = slowReader(server.port, getRequest(`${ORDERS}?limit=500`, buyer.apiKey));
      // Its answer is made and waits for its reader: the key's one place is held.
      await eventually(
        async () => ((await server.metric("http_sending_bytes")) > 4_000_000 ? true : null),
        60_000,
      );
      const waiting = [499, 498].map((limit) => server.get(`${ORDERS}?limit=${limit}`, buyer.apiKey));
      await eventually(async () => ((await server.metric("expensive_work_waiting")) === 2 ? true : null));
      const refused = await server.get(`${ORDERS}?limit=497`, buyer.apiKey);
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe("1");
      const refusal = await fetch(`http://127.0.0.1:${server.port}${ORDERS}?limit=496`, {
        headers: { "x-api-key": buyer.apiKey },
      });
      expect(refusal.headers.get("content-type")).toContain("application/problem+json");
      expect(await refusal.json()).toMatchObject({ status: 429, code: "rate_limited" });

      // Another key's large page is served while the flooding key's still wait; the key's small pages too.
      expect((await server.get(`${ORDERS}?limit=500`, other.apiKey)).status).toBe(200);
      expect((await server.get(`${ORDERS}?limit=50`, buyer.apiKey)).status).toBe(200);
      expect(await server.metric("expensive_work_waiting")).toBe(2);

      // Once the unread answer has gone, the waiting pages are served in turn.
      reader.socket.destroy();
      expect((await Promise.all(waiting)).map(({ status }) => status)).toEqual([200, 200]);
      await eventually(async () => ((await server.metric("expensive_work_running")) === 0 ? true : null));
      expect(await server.metric("expensive_work_waiting")).toBe(0);
    });
  });
});
