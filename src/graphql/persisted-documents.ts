import { createHash } from "node:crypto";
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { GraphQLError } from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import type { PersistedDocumentsConfig } from "../config.js";

/** Documents registered by clients through automatic persisted queries, per process. */
const APQ_DOCUMENTS = 1_000;
const APQ_MAX_BYTES = 8 * 1024 * 1024;

const REQUEST_ERROR = { status: 400, spec: false } as const;

function requestError(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: REQUEST_ERROR } });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** `sha256:<hex>` (graphql-codegen's client preset) and a bare hex hash name the same document. */
function hashOf(id: string): string {
  return id.startsWith("sha256:") ? id.slice("sha256:".length) : id;
}

/** What identifies a persisted document in a request: Apollo's APQ extension, or a trusted-documents `documentId`. */
function persistedDocumentId(params: GraphQLParams): string | null {
  const persistedQuery = params.extensions?.persistedQuery as
    | { version?: unknown; sha256Hash?: unknown }
    | undefined;
  if (persistedQuery && persistedQuery.version === 1 && typeof persistedQuery.sha256Hash === "string") {
    return hashOf(persistedQuery.sha256Hash);
  }
  const documentId = (params as { documentId?: unknown }).documentId;
  return typeof documentId === "string" ? hashOf(documentId) : null;
}

/**
 * Persisted documents on /graphql:
 * - the documents of a manifest (`GRAPHQL_PERSISTED_DOCUMENTS`, the
 *   `persisted-documents.json` graphql-codegen's client preset writes), sent
 *   by their hash as `documentId` or Apollo's `extensions.persistedQuery`;
 * - automatic persisted queries (Apollo's persisted-query link): a hash
 *   unknown here answers `PERSISTED_QUERY_NOT_FOUND`, the client sends the
 *   document with its hash once, and this process keeps it;
 * - with `GRAPHQL_PERSISTED_ONLY`, nothing else: a document sent in full is
 *   refused unless it is in the manifest, and clients cannot register more.
 */
export function persistedDocumentsPlugins({ manifest, only }: PersistedDocumentsConfig): Plugin[] {
  const registered = new LRUCache<string, string>({
    max: APQ_DOCUMENTS,
    maxSize: APQ_MAX_BYTES,
    sizeCalculation: (document) => Math.max(1, document.length),
  });
  const registration: Plugin = {
    onParams({ params, setParams }) {
      const id = persistedDocumentId(params);
      if (params.query === undefined || params.query === null) return;
      if (id === null) {
        if (only)
          throw requestError(
            "Only persisted documents are accepted: send the document's id",
            "PERSISTED_QUERY_ONLY",
          );
        return;
      }
      if (sha256(params.query) !== id) {
        throw requestError("The document does not match its sha256 hash", "PERSISTED_QUERY_HASH_MISMATCH");
      }
      if (manifest.has(id)) {
        // In the manifest: run it by id, so GRAPHQL_PERSISTED_ONLY accepts it.
        setParams({ ...params, query: undefined });
        return;
      }
      if (only)
        throw requestError(
          "Only persisted documents are accepted: this one is not in the manifest",
          "PERSISTED_QUERY_ONLY",
        );
      registered.set(id, params.query);
    },
  };
  return [
    registration,
    usePersistedOperations({
      allowArbitraryOperations: !only,
      extractPersistedOperationId: persistedDocumentId,
      getPersistedOperation: (id) => manifest.get(id) ?? registered.get(id) ?? null,
      customErrors: {
        // Apollo's persisted-query link recognises this message and resends with the document.
        notFound: {
          message: "PersistedQueryNotFound",
          extensions: { code: "PERSISTED_QUERY_NOT_FOUND", http: REQUEST_ERROR },
        },
        keyNotFound: {
          message: "Send a GraphQL document (query) or the id of a persisted document",
          extensions: { code: "BAD_REQUEST", http: REQUEST_ERROR },
        },
        persistedQueryOnly: {
          message: "Only persisted documents are accepted: send the document's id",
          extensions: { code: "PERSISTED_QUERY_ONLY", http: REQUEST_ERROR },
        },
      },
    }),
  ];
}
