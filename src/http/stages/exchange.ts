// What the stages of a request share, and how they are put in a row. A stage
// gets the exchange and the rest of the pipeline (`next`); it answers by
// itself, or calls `next` and may change what comes back. The row is composed
// once at startup: `next` takes the exchange as its argument, so that no stage
// makes a function per request.
import type { RequestSpan } from "../../telemetry/tracing-types.js";
import type { Admission } from "../admission.js";
import type { Problem } from "../problem.js";
import type { WhenSent } from "../response-cache.js";
import type { RouteMatch } from "../router.js";

/** What a route leads to: how requests there are admitted, read and answered. */
export interface Endpoint {
  /** Requests here are the API's: their key is looked up and counted, and failed authentications are limited. */
  readonly admits: boolean;
  /** Its GET (and HEAD) reads only data the change log versions: conditional (ETag, 304) and cached. */
  readonly versionedGet: boolean;
  /**
   * The change log's record types its versioned GET can show, which its
   * ETags' versions follow; null: any of the buyer's (the buyer's version).
   */
  readonly versionedRecordTypes?: readonly string[] | null;
  handle(exchange: Exchange): Promise<Response>;
  /** How it answers a problem the stages found, when not as an RFC 9457 problem (GraphQL's errors). */
  problemResponse?(problem: Problem, requestId: string): Response;
}

/**
 * What the HTTP server tells the app about a request beyond the request
 * itself; `app.fetch(request, { clientAddress })` in tests.
 */
export interface ServerContext {
  /** Without one (and without a socket), failed authentications are not limited per address. */
  clientAddress?: string;
  /** Set by @whatwg-node/server when the app serves node:http directly. */
  req?: { socket?: { remoteAddress?: string } };
  /** node:http's response, likewise: its "close" says the answer has gone out (or never will). */
  res?: { closed: boolean; once(event: "close", listener: () => void): unknown };
}

/** One request on its way through the stages. */
export interface Exchange {
  readonly request: Request;
  /** The caller's X-Request-Id when it is a sane token, else a new one. */
  readonly requestId: string;
  /** The request's URL under the public origin (src/http/request-origin.ts). */
  readonly url: URL;
  /** The router's one match for the path: what metrics, logs and spans are labelled with. */
  readonly route: RouteMatch<Endpoint>;
  /** A GET or HEAD of a versioned read: conditional and cached. */
  readonly versionedRead: boolean;
  /** The client's address, or null when the request came through no socket. */
  readonly clientAddress: string | null;
  /** How to learn that the answer has left the process, when the HTTP server can tell. */
  readonly whenSent: WhenSent | undefined;
  /**
   * How to learn that the answer has been made: coded, compressed, its body
   * ready to go (src/http/stages/sending.ts says so), or the request failed.
   */
  readonly whenMade: WhenSent;
  /** Says the answer has been made; once. */
  readonly made: () => void;
  /** The request's tracing span, when tracing is on. */
  readonly span: RequestSpan | undefined;
  /** The caller and its rate-limit standing, once admitted; null without a valid key. */
  admission: Admission | null;
  /** The status metrics and the log record when it is not the response's: 499 for a client that hung up. */
  recordedStatus: number | null;
}

export type Next = (exchange: Exchange) => Promise<Response>;

export type Stage = (exchange: Exchange, next: Next) => Promise<Response>;

/** The stages in order, the first outermost, ending in `last`. */
export function compose(stages: readonly Stage[], last: Next): Next {
  return stages.reduceRight<Next>((next, stage) => (exchange) => stage(exchange, next), last);
}
