import { createHash } from "node:crypto";
import { printExecutableGraphQLDocument } from "@graphql-tools/documents";
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { GraphQLError, parse } from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import type { Viewer } from "../auth/viewer.js";
import type { PersistedDocumentsConfig } from "../config.js";
import { stringBytes } from "./document-cache.js";

const REQUEST_ERROR = { status: 400, spec: false } as const;

function requestError(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: REQUEST_ERROR } });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * A document as graphql-codegen's client preset prints it before hashing it
 * into the manifest (fields and arguments sorted, no comments or layout), or
 * null when it does not parse (within `maxTokens`, when given).
 */
function normalised(document: string, maxTokens?: number): string | null {
  try {
    return printExecutableGraphQLDocument(parse(document, { noLocation: true, maxTokens }));
  } catch {
    return null;
  }
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
 * Yoga reads `query`, `variables`, `operationName` and `extensions` from a
 * GET's query string, not `documentId`: taken here, so that a GET names a
 * manifest document as a POST does.
 */
const documentIdFromQueryString: Plugin = {
  onParams({ params, request, setParams }) {
    if (request.method !== "GET" || (params as { documentId?: unknown }).documentId !== undefined) return;
    const documentId = new URL(request.url).searchParams.get("documentId");
    if (documentId !== null) setParams({ ...params, documentId } as GraphQLParams);
  },
};

/** What the server knows of a request before its document: who sends it (app.ts's RequestScope). */
interface RequestScope {
  viewer?: Viewer | null;
}

/**
 * Where a document registered by automatic persisted queries is kept: under
 * the sending buyer, so that another buyer sending the same hash is asked for
 * the document, and learns nothing of what this buyer sends. Requests without
 * an API key share one scope; they can read nothing of any buyer's.
 */
function registrationKey(context: RequestScope, hash: string): string {
  return `${context.viewer?.buyerId ?? "anonymous"}:${hash}`;
}

/**
 * Persisted documents on /graphql:
 * - the documents of a manifest (`GRAPHQL_PERSISTED_DOCUMENTS`, the
 *   `persisted-documents.json` graphql-codegen's client preset writes), sent
 *   by their hash as `documentId` or Apollo's `extensions.persistedQuery`;
 * - automatic persisted queries (Apollo's persisted-query link): a hash
 *   unknown here answers `PERSISTED_QUERY_NOT_FOUND`, the client sends the
 *   document with its hash once, and this process keeps it for the buyer
 *   who sent it;
 * - with `GRAPHQL_PERSISTED_ONLY`, nothing else: a document sent in full is
 *   refused unless it is in the manifest (its text, or its text normalised
 *   as the client preset normalises before hashing, is a manifest
 *   document's; the manifest's document then runs), and clients cannot
 *   register more.
 */
export function persistedDocumentsPlugins(
  { manifest, only }: PersistedDocumentsConfig,
  bounds: {
    /** The token limit, within which a document sent in full is normalised. */
    maxTokens: number;
    /** How many documents automatic persisted queries may register in this process… */
    maxDocuments: number;
    /** …and how many bytes of text they may hold; the least recently used go first. */
    maxBytes: number;
  },
): Plugin[] {
  const manifestIdOf = manifestIdFinder(manifest, only, bounds.maxTokens);
  // One bound for every buyer's registrations: a buyer asked again resends the document.
  const registered = new LRUCache<string, string>({
    max: bounds.maxDocuments,
    maxSize: bounds.maxBytes,
    sizeCalculation: (document, hash) => Math.max(1, stringBytes(document) + stringBytes(hash)),
  });
  return [
    documentIdFromQueryString,
    registrationPlugin(manifest, only, manifestIdOf, registered),
    usePersistedOperations<RequestScope>({
      allowArbitraryOperations: !only,
      extractPersistedOperationId: persistedDocumentId,
      getPersistedOperation: (id, _request, context) =>
        manifest.get(id) ?? registered.get(registrationKey(context, id)) ?? null,
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

type Manifest = PersistedDocumentsConfig["manifest"];

/**
 * A function giving the manifest id of a document sent in full, or null when
 * it is not in the manifest: its text is a manifest document's, or (with
 * `only`) its text normalised within `maxTokens` is.
 */
function manifestIdFinder(
  manifest: Manifest,
  only: boolean,
  maxTokens: number,
): (document: string) => string | null {
  /** sha256 of each manifest document's normalised text → its id, for documents sent in full. */
  const manifestIdByNormalisedHash = new Map<string, string>();
  if (only) {
    for (const [id, document] of manifest) {
      const text = normalised(document);
      if (text !== null) manifestIdByNormalisedHash.set(sha256(text), id);
    }
  }
  return (document) => {
    const exact = sha256(document);
    if (manifest.has(exact)) return exact;
    const text = normalised(document, maxTokens);
    return text === null ? null : (manifestIdByNormalisedHash.get(sha256(text)) ?? null);
  };
}

/**
 * Checks a document sent in full: with its hash, it must match the hash, and
 * is registered unless it is in the manifest (or refused, with `only`);
 * without, it runs as the manifest's document (or is refused, with `only`).
 */
function registrationPlugin(
  manifest: Manifest,
  only: boolean,
  manifestIdOf: (document: string) => string | null,
  registered: LRUCache<string, string>,
): Plugin<RequestScope> {
  return {
    onParams({ params, setParams, context }) {
      const id = persistedDocumentId(params);
      if (params.query === undefined || params.query === null) return;
      if (id === null) {
        if (!only) return;
        const manifestId = manifestIdOf(params.query);
        if (manifestId === null)
          throw requestError(
            "Only persisted documents are accepted: this one is not in the manifest; send a manifest document's id",
            "PERSISTED_QUERY_ONLY",
          );
        // Run the manifest's own text, by its id.
        setParams({
          ...params,
          query: undefined,
          extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: manifestId } },
        });
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
      registered.set(registrationKey(context, id), params.query);
    },
  };
}
