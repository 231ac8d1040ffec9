import type { DocumentNode, GraphQLSchema, ValidationRule } from "graphql";
import type { Plugin, YogaServerOptions } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { keptIn } from "../schema/kept-in.js";

/**
 * What graphql-js's syntax tree of a document takes per token, locations
 * included, rounded up from measurement: a document at the default token
 * limit takes about a megabyte.
 */
const BYTES_PER_TOKEN = 600;

/** Yoga's `parserAndValidationCache` option in its object form (the type is not exported by name). */
type ParseCacheOptions = Exclude<
  NonNullable<YogaServerOptions<Record<string, never>, Record<string, never>>["parserAndValidationCache"]>,
  boolean
>;

/** What a string may take in memory: two bytes per UTF-16 unit. */
export function stringBytes(text: string): number {
  return 2 * text.length;
}

function tokenCount(document: DocumentNode): number {
  let count = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) count += 1;
  return count;
}

/**
 * Yoga's parse cache (documents and parse errors by their text, so that a
 * document sent again is not parsed again), bounded by estimated bytes rather
 * than Yoga's default of a thousand entries of any size: distinct documents
 * near the token or body limit would otherwise hold a megabyte each. Both
 * share one budget; the least recently used go first.
 */
export function boundedDocumentCache(maxBytes: number): ParseCacheOptions & {
  /** Estimated bytes held now. */
  readonly bytes: number;
} {
  const cache = new LRUCache<string, DocumentNode | Error>({
    maxSize: maxBytes,
    sizeCalculation: (value, text) =>
      Math.max(1, stringBytes(text) + (value instanceof Error ? 0 : BYTES_PER_TOKEN * tokenCount(value))),
  });
  // A document larger than the whole budget is not kept (lru-cache refuses it), and parsed again when sent again.
  return {
    documentCache: {
      get: (text) => {
        const value = cache.get(text);
        return value instanceof Error ? undefined : value;
      },
      set: (text, document) => {
        cache.set(text, document);
      },
    },
    errorCache: {
      get: (text) => {
        const value = cache.get(text);
        return value instanceof Error ? value : undefined;
      },
      set: (text, error) => {
        if (error instanceof Error) cache.set(text, error);
      },
    },
    // Kept by validationCachePlugin instead.
    validationCache: false,
    get bytes() {
      return cache.calculatedSize;
    },
  };
}

/** Rule sets whose results are kept per document: the plugins add the same rules to every request. */
const MAX_RULE_SETS_PER_DOCUMENT = 4;

type ValidatePayload = Parameters<NonNullable<Plugin["onValidate"]>>[0];
/** What validation gave: its errors, none when the document is valid. */
type ValidationResult = Parameters<ValidatePayload["setResult"]>[0];

interface KeptValidation {
  ruleNames: readonly string[];
  result: ValidationResult;
}

function sameNames(kept: readonly string[], rules: readonly ValidationRule[]): boolean {
  if (kept.length !== rules.length) return false;
  for (let index = 0; index < kept.length; index += 1) if (kept[index] !== rules[index]?.name) return false;
  return true;
}

/**
 * Validation results kept with each parsed document, as Yoga's own validation
 * cache keeps them (by the schema and the names of the rules run, which
 * graphql-armor makes anew for every request), without building a text of
 * the rules' names and reading an expiring cache on every request. A document
 * sent again is the same DocumentNode from the parse cache, so its results
 * live as long as it. Last of the plugins, so that it sees every rule the
 * others add.
 */
export function validationCachePlugin(): Plugin {
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, KeptValidation[]>>();
  return {
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      const run: readonly ValidationRule[] = rules ?? [];
      const kept = keptIn(
        keptIn(bySchema, schema, () => new WeakMap()),
        documentAST,
        () => [],
      );
      const found = kept.find((entry) => sameNames(entry.ruleNames, run));
      if (found) {
        setResult(found.result);
        return;
      }
      const ruleNames = run.map((rule) => rule.name);
      const results = kept;
      return ({ result }) => {
        if (results.length >= MAX_RULE_SETS_PER_DOCUMENT) results.shift();
        results.push({ ruleNames, result });
      };
    },
  };
}
