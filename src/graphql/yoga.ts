import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, maskError, type Plugin } from "graphql-yoga";
import type { Viewer } from "../auth/viewer.js";
import type { GraphQLConfig } from "../config.js";
import type { ExpensiveWork } from "../http/expensive-work.js";
import type { WhenSent } from "../http/response-cache.js";
import type { Logger } from "../logger.js";
import type { GraphQLContext, ReadPosition } from "../schema/context.js";
import { bodyLimitPlugin } from "./body-limit.js";
import type { RateLimitStanding } from "./cost.js";
import { boundedDocumentCache, validationCachePlugin } from "./document-cache.js";
import { graphiqlOptions } from "./graphiql.js";
import { persistedDocumentsPlugins } from "./persisted-documents.js";
import { protectionPlugins } from "./protection.js";

export const GRAPHQL_PATH = "/graphql";

/** What app.ts knows about a request before GraphQL sees it. */
export interface RequestScope {
  requestId: string;
  viewer: Viewer | null;
  /** The caller's rate-limit standing with this request counted; reported in `extensions.rateLimit`. */
  rateLimit?: RateLimitStanding;
  /** Where the request's reads may run: its admission's read position. */
  position: ReadPosition | null;
  /** How to learn that the answer has left the process, when the HTTP server can tell. */
  whenSent?: WhenSent;
  /** How to learn that the answer has been made (coded and ready to go). */
  whenMade?: WhenSent;
}

export interface GraphQLServerOptions {
  schema: GraphQLSchema;
  config: GraphQLConfig;
  logger: Logger;
  /** `signal` aborts when the client goes away, so that what the request holds open is let go. */
  contextFor(
    viewer: Viewer | null,
    requestId: string,
    position: ReadPosition | null,
    signal?: AbortSignal,
  ): GraphQLContext;
  /** Each key's expensive work, shared with the REST API. */
  expensiveWork: ExpensiveWork;
  /** Further envelop plugins, e.g. metrics. */
  plugins?: Plugin[];
  /** Larger bodies are refused with 413 while they are read (Yoga's own default is 25 MB). */
  maxRequestBodySize: number;
  /** The demo's key, filled into GraphiQL's headers (`buyer-api demo --serve` only). */
  demoApiKey?: string;
}

/**
 * /graphql: queries and mutations over HTTP, subscriptions over Server-Sent
 * Events, and GraphiQL for browsers, rendered from the installed package so
 * the page loads nothing from the internet. The API key was checked by app.ts.
 */
export function createGraphQLServer({
  schema,
  config,
  logger,
  contextFor,
  plugins = [],
  maxRequestBodySize,
  demoApiKey,
  expensiveWork,
}: GraphQLServerOptions) {
  return createYoga<RequestScope, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // Enforced by bodyLimitPlugin, last of the plugins below.
    maxRequestBodySize: false,
    parserAndValidationCache: boundedDocumentCache(config.memory.documentCacheMaxBytes),
    context: ({ viewer, requestId, position, request }) =>
      contextFor(viewer, requestId, position, request.signal),
    logging: {
      debug: () => {},
      info: () => {},
      warn: (...args) => logger.warn({ args }, "graphql"),
      error: (...args) => logger.error({ args }, "graphql"),
    },
    landingPage: false,
    graphiql: config.graphiql ? graphiqlOptions(demoApiKey) : false,
    // GraphiQL's page holds its whole bundle as one text, tens of MB of heap: loaded when first shown.
    renderGraphiQL: async (options) =>
      (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    maskedErrors: {
      // Errors the code did not mean to show keep their secrets (SQL, stack)
      // and get the code REST uses for them.
      maskError: (error, message, isDev) => {
        const masked = maskError(error, message, isDev);
        if (masked === error) return masked;
        logger.error({ err: error }, "unexpected error in GraphQL execution");
        const { http } = masked instanceof GraphQLError ? masked.extensions : {};
        return new GraphQLError(
          "An unexpected error occurred; quote the X-Request-Id response header when reporting it",
          {
            nodes: masked instanceof GraphQLError ? masked.nodes : undefined,
            path: masked instanceof GraphQLError ? masked.path : undefined,
            extensions: { code: "INTERNAL", ...(http ? { http } : {}) },
          },
        );
      },
    },
    plugins: [
      ...persistedDocumentsPlugins(config.persistedDocuments, {
        maxTokens: config.limits.maxTokens,
        maxDocuments: config.memory.apqMaxDocuments,
        maxBytes: config.memory.apqMaxBytes,
      }),
      ...protectionPlugins(config, expensiveWork),
      ...plugins,
      validationCachePlugin(),
      bodyLimitPlugin(maxRequestBodySize),
    ],
  });
}
