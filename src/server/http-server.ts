import { createServer, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { App } from "../app.js";
import type { Metrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import { createIdleCollection } from "./idle-collection.js";
import { malformedTarget, writeBadRequest, writeClientError } from "./malformed-request.js";
import { ResponseWithReasonPhrase } from "./reason-phrase.js";

/** How long in-flight requests get to finish after SIGTERM before the process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A request still on its way when the signal came arrives within this. */
const QUIET_PERIOD_MS = 250;

export interface HttpServer {
  server: Server;
  /**
   * Stops listening, lets every accepted connection finish its requests
   * (each answered with `Connection: close`), then closes what is left.
   */
  drain(): Promise<void>;
}

/** The requests a server is answering, and whether it is draining. */
interface InFlight {
  draining: boolean;
  readonly responses: Set<ServerResponse>;
  /** When each answer being sent was first seen sending, in epoch milliseconds. */
  readonly sendingSince: WeakMap<ServerResponse, number>;
  /** When the last request arrived, in epoch milliseconds. */
  lastRequestAt: number;
}

/** The node:http server in front of the app: malformed requests, parser errors, and draining. */
export function createHttpServer(
  app: App,
  options: {
    logger: Logger;
    requestTimeoutMs: number;
    /** How long a client may take to read an answer once its head is sent. */
    writeTimeoutMs: number;
    /** Where a connection closed for reading too slowly is counted: the app's metrics. */
    metrics: Pick<Metrics, "countWriteTimeout">;
    graceMs?: number;
  },
): HttpServer {
  const { logger } = options;
  const inFlight: InFlight = {
    draining: false,
    responses: new Set(),
    sendingSince: new WeakMap(),
    lastRequestAt: 0,
  };
  const idleCollection = createIdleCollection();
  /** The response of the request each connection is on, for the parser's errors that come while the app answers. */
  const responseOn = new WeakMap<Duplex, ServerResponse>();
  const serverOptions = {
    ServerResponse: ResponseWithReasonPhrase,
    // A request without Host is answered here (malformedTarget), with a problem body, not by Node with an empty one.
    requireHostHeader: false,
    // Node checks the request and headers timeouts this often: a timeout is kept to within a second.
    connectionsCheckingInterval: Math.min(1_000, options.requestTimeoutMs),
  };
  const server = createServer(serverOptions, (request, response) => {
    inFlight.lastRequestAt = Date.now();
    idleCollection.requested();
    responseOn.set(request.socket, response);
    // A target or Host header no URL can be built from never reaches the app:
    // @whatwg-node/server builds the fetch Request's URL from them and would
    // answer its own 500 with a stack trace.
    const malformed = malformedTarget(request);
    if (malformed) {
      const requestId = writeBadRequest(request, response, malformed);
      logger.info(
        {
          requestId,
          method: request.method,
          target: request.url?.slice(0, 200),
          status: 400,
          reason: malformed,
        },
        "request",
      );
      return;
    }
    inFlight.responses.add(response);
    response.once("close", () => inFlight.responses.delete(response));
    // While draining, tell keep-alive clients to open their next request elsewhere.
    if (inFlight.draining) response.shouldKeepAlive = false;
    void app(request, response);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    const written = writeClientError(error, socket, responseOn.get(socket));
    if (written)
      logger.info(
        { requestId: written.requestId, status: written.status, reason: error.code },
        "request refused by the HTTP parser",
      );
  });
  // A client that trickles its request in is cut off; a response may take as long as it needs (SSE).
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = Math.min(options.requestTimeoutMs, 60_000);
  const { writeTimeoutMs, metrics } = options;
  const writeDeadlines = setInterval(
    () => {
      closeSlowReaders(inFlight, writeTimeoutMs, metrics, logger);
      idleCollection.tick();
    },
    Math.min(1_000, writeTimeoutMs),
  );
  writeDeadlines.unref();
  server.once("close", () => clearInterval(writeDeadlines));

  return {
    server,
    drain: () => drainServer(server, app, inFlight, logger, options.graceMs ?? SHUTDOWN_GRACE_MS),
  };
}

/**
 * Closes the connection of every answer whose client has not read it within
 * the write timeout of its head being sent: a client reading slowly (or not
 * at all) would otherwise keep the answer's bytes, and the work counted
 * until they are sent, as long as it likes. Node's own socket timeout cannot
 * tell: it sees a trickle of reads as activity. Event streams (subscriptions)
 * are meant to stay open and are left alone. Checked every second, as Node
 * checks its request timeouts.
 */
function closeSlowReaders(
  inFlight: InFlight,
  writeTimeoutMs: number,
  metrics: Pick<Metrics, "countWriteTimeout">,
  logger: Logger,
): void {
  const now = Date.now();
  for (const response of inFlight.responses) {
    if (!response.headersSent || response.writableFinished) continue;
    if (String(response.getHeader("content-type") ?? "").startsWith("text/event-stream")) continue;
    const since = inFlight.sendingSince.get(response);
    if (since === undefined) inFlight.sendingSince.set(response, now);
    else if (now - since >= writeTimeoutMs) {
      inFlight.responses.delete(response);
      metrics.countWriteTimeout();
      logger.info(
        { requestId: response.getHeader("x-request-id"), writeTimeoutMs },
        "answer not read within the write timeout: connection closed",
      );
      response.destroy();
    }
  }
}

async function drainServer(
  server: Server,
  app: App,
  inFlight: InFlight,
  logger: Logger,
  graceMs: number,
): Promise<void> {
  // Connections the kernel has taken but Node has not yet accepted would be
  // reset by closing the listener: let the event loop's poll phase accept them.
  await new Promise((resolve) => setImmediate(resolve));
  // Stop listening first, while keep-alive clients still reuse their
  // connections: the kernel's accept queue is then empty, so closing the
  // listener resets nothing. server.close() would also drop idle keep-alive
  // connections, racing a request a client may be sending on one; keep them.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {};
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Only now tell keep-alive clients to reconnect: their new connection is
  // refused outright rather than caught in the closing listener's queue.
  inFlight.draining = true;
  for (const response of inFlight.responses) if (!response.headersSent) response.shouldKeepAlive = false;
  // Subscription streams never finish by themselves: end them, so that
  // draining waits only for ordinary requests.
  await app.dispose();
  const deadline = Date.now() + graceMs;
  while (
    Date.now() < deadline &&
    (inFlight.responses.size > 0 || Date.now() - inFlight.lastRequestAt < QUIET_PERIOD_MS)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (inFlight.responses.size > 0)
    logger.warn(
      { activeRequests: inFlight.responses.size },
      "grace period over: closing remaining connections",
    );
  closeIdle();
  server.closeAllConnections();
  await closed;
}
