import type { RequestSpan } from "../../telemetry/tracing-types.js";
import { pickRequestId } from "../request-id.js";
import type { RequestOrigin } from "../request-origin.js";
import type { WhenSent } from "../response-cache.js";
import type { Router } from "../router.js";
import type { Endpoint, Exchange, ServerContext } from "./exchange.js";

/**
 * Where a request goes, decided before the first stage runs: its URL, parsed
 * once (the HTTP server answers 400 to a target or Host no URL can be built
 * from, src/server/malformed-request.ts), and the router's one match, which
 * every stage reads and the observation labels with.
 */
export function createRouting(router: Router<Endpoint>, origin: RequestOrigin) {
  return (request: Request, context: ServerContext, span: RequestSpan | undefined): Exchange => {
    const url = origin.publicUrl(request);
    const route = router.match(url.pathname);
    const reads = request.method === "GET" || request.method === "HEAD";
    const made = onceEvent();
    return {
      request,
      requestId: pickRequestId(request.headers.get("x-request-id")),
      url,
      route,
      versionedRead: reads && route.target.versionedGet,
      clientAddress: origin.clientAddress(
        request,
        context.clientAddress ?? context.req?.socket?.remoteAddress,
      ),
      whenSent: whenSentOver(context),
      whenMade: made.when,
      made: made.happen,
      span,
      admission: null,
      recordedStatus: null,
    };
  };
}

/** Only node:http's own response can tell when the answer has left the process. */
function whenSentOver(context: ServerContext): WhenSent | undefined {
  const { res } = context;
  if (!res || res.closed) return undefined;
  return (done) => {
    // Asked once the answer is ready: the client may have gone meanwhile.
    if (res.closed) done();
    else res.once("close", done);
  };
}

/** An event that happens once: a callback asked for after it runs at once. */
function onceEvent(): { when: WhenSent; happen(): void } {
  let waiting: (() => void)[] | null = [];
  return {
    when(done) {
      if (waiting) waiting.push(done);
      else done();
    },
    happen() {
      const callbacks = waiting;
      waiting = null;
      for (const done of callbacks ?? []) done();
    },
  };
}
