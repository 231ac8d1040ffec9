// Exchanges as the app makes them (the real routing, over a small route table
// of recording endpoints), and a `next` that stands for the stages after the
// one under test, so that each stage runs by itself, in process.
import { createRequestOrigin } from "../../../src/http/request-origin.js";
import { createRouter } from "../../../src/http/router.js";
import type { Endpoint, Exchange, Next, ServerContext } from "../../../src/http/stages/exchange.js";
import { notFound } from "../../../src/http/stages/not-found.js";
import { createRouting } from "../../../src/http/stages/routing.js";

/** An endpoint that answers 200 with a small JSON body and counts the requests it got. */
export function recordingEndpoint(options: { admits: boolean; versionedGet: boolean }): Endpoint & {
  handled: Exchange[];
} {
  const handled: Exchange[] = [];
  return {
    ...options,
    handled,
    async handle(exchange) {
      handled.push(exchange);
      return Response.json({ path: exchange.url.pathname, params: exchange.route.params });
    },
  };
}

/** A read of versioned data, like a REST GET of the contract. */
export const versionedThing = recordingEndpoint({ admits: true, versionedGet: true });
/** An API path whose reads are not versioned, like /graphql. */
export const unversionedApi = recordingEndpoint({ admits: true, versionedGet: false });
/** A page that needs no key, like /healthz. */
export const openPage = recordingEndpoint({ admits: false, versionedGet: false });

export const router = createRouter(
  [
    { template: "/api/things/{id}", target: versionedThing },
    { template: "/api/other", target: unversionedApi },
    { template: "/page", target: openPage },
  ],
  () => notFound,
);

export const PUBLIC_ORIGIN = "https://api.example.test";

const routing = createRouting(
  router,
  createRequestOrigin({ publicBaseUrl: PUBLIC_ORIGIN, trustProxy: false }),
);

/** The exchange the app makes for a request to `path` (on any host: the public origin is configured). */
export function exchangeFor(path: string, init: RequestInit = {}, context: ServerContext = {}): Exchange {
  return routing(new Request(`http://localhost${path}`, init), context, undefined);
}

/** The rest of the pipeline, answering `respond()` each time; `calls` says how often it was reached. */
export function stubNext(respond: (exchange: Exchange) => Response = () => Response.json({ ok: true })) {
  const calls: Exchange[] = [];
  const next: Next = async (exchange) => {
    calls.push(exchange);
    return respond(exchange);
  };
  return Object.assign(next, { calls });
}
