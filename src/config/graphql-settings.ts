// The GraphQL endpoint's part of the configuration table (AppConfig.graphql).
// Descriptions are Markdown for docs/reference/configuration.md's table.

import { combine, optionalVariable, variable } from "./setting.js";
import { booleanFlag, limit, persistedDocumentsManifest, wholeNumber } from "./values.js";

export const GRAPHQL_SETTINGS = {
  graphiql: variable({
    name: "GRAPHIQL_ENABLED",
    default: "true",
    schema: booleanFlag,
    description: "serve GraphiQL at `GET /graphql`",
  }),
  introspection: variable({
    name: "GRAPHQL_INTROSPECTION",
    default: "true",
    schema: booleanFlag,
    description: "allow `__schema`/`__type`; when off, errors suggest no names either",
  }),
  plannedReads: variable({
    name: "GRAPHQL_PLANNED_READS",
    default: "true",
    schema: booleanFlag,
    description:
      "answer each query the read planner covers from one planned SQL statement; `false` executes every query (to compare the two, or to rule the planner out)",
  }),
  // What one operation may ask for before it is refused unexecuted. Sized so
  // that the REST adapter's largest document, sent to /graphql with a literal
  // `first: 500`, still passes, while nesting 500-item pages in 500-item pages
  // does not.
  limits: {
    maxDepth: variable({
      name: "GRAPHQL_MAX_DEPTH",
      default: "12",
      schema: limit,
      description:
        "nesting of fields in one GraphQL operation; a connection counts two levels (`edges { node }`) ([graphql](graphql.md#limits))",
    }),
    maxAliases: variable({
      name: "GRAPHQL_MAX_ALIASES",
      default: "30",
      schema: limit,
      description: "aliased fields in one operation, the usual way to batch many expensive fields",
    }),
    maxCost: variable({
      name: "GRAPHQL_MAX_COST",
      default: "200000",
      schema: limit,
      description:
        "estimated cost of one operation; each connection multiplies the cost of what it pages by its page size",
    }),
    maxTokens: variable({
      name: "GRAPHQL_MAX_TOKENS",
      default: "2000",
      schema: limit,
      description: "lexical tokens in one document, counted while parsing",
    }),
    maxDirectives: variable({
      name: "GRAPHQL_MAX_DIRECTIVES",
      default: "50",
      schema: limit,
      description: "directives in one operation",
    }),
  },
  work: {
    timeoutMs: variable({
      name: "GRAPHQL_TIMEOUT_MS",
      default: "15000",
      schema: wholeNumber(100, { unit: "number of milliseconds" }),
      description: "a GraphQL query is stopped after this long; on PostgreSQL its SQL is cancelled too",
    }),
    expensiveCost: variable({
      name: "GRAPHQL_EXPENSIVE_COST",
      default: "20000",
      schema: limit,
      description:
        "operations costing at least this much are expensive: they count against `MAX_CONCURRENT_EXPENSIVE_PER_KEY`",
    }),
  },
  // What /graphql keeps in memory per process, whatever clients send.
  memory: {
    apqMaxDocuments: variable({
      name: "GRAPHQL_APQ_MAX_DOCUMENTS",
      default: "1000",
      schema: limit,
      description:
        "documents registered by automatic persisted queries that each process keeps, least recently used first out ([operations](operations.md#memory-bounds))",
    }),
    apqMaxBytes: variable({
      name: "GRAPHQL_APQ_MAX_BYTES",
      default: "8388608",
      schema: limit,
      description: "bytes of those documents' text",
    }),
    documentCacheMaxBytes: variable({
      name: "GRAPHQL_DOCUMENT_CACHE_MAX_BYTES",
      default: "33554432",
      schema: limit,
      description:
        "estimated bytes of parsed documents (and parse errors) each process keeps, so that a document sent again is not parsed again",
    }),
  },
  maxSubscriptionsPerKey: variable({
    name: "GRAPHQL_MAX_SUBSCRIPTIONS_PER_KEY",
    default: "10",
    schema: limit,
    description:
      "open `orderUpdated` subscriptions per API key per server process; one more gets `CONCURRENCY_LIMIT_EXCEEDED`",
  }),
  persistedDocuments: combine(
    {
      /** sha256 (hex) → document; empty without a manifest. */
      manifest: optionalVariable({
        name: "GRAPHQL_PERSISTED_DOCUMENTS",
        whenUnset: "unset",
        schema: persistedDocumentsManifest,
        description:
          "path to a manifest of persisted documents (`persisted-documents.json` from graphql-codegen); see [graphql](graphql.md#persisted-documents)",
      }),
      /** Nothing sent in full, no automatic registration. */
      only: variable({
        name: "GRAPHQL_PERSISTED_ONLY",
        default: "false",
        schema: booleanFlag,
        description: "accept only the manifest's documents on `/graphql` (production)",
      }),
    },
    ({ manifest, only }, refuse) =>
      manifest === null && only
        ? refuse(
            "GRAPHQL_PERSISTED_ONLY",
            "needs GRAPHQL_PERSISTED_DOCUMENTS, the manifest of accepted documents",
          )
        : { manifest: manifest ?? new Map<string, string>(), only },
  ),
};
