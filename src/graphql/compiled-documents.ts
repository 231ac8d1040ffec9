// Persisted documents answered by compiled reads: a query whose text the
// service knows (a manifest document, or one registered by its hash) and
// whose selection the planner compiles is answered from its SQL rows, with
// the JSON text of its `data` written straight from them; any other runs on
// normal execution. Both give the same bytes (test/graphql/compiled-documents.test.ts).
import { type DocumentNode, type ExecutionResult, type GraphQLSchema, getOperationAST, parse } from "graphql";
import type { Plugin, YogaInitialContext } from "graphql-yoga";
import { type CompiledGraphQLRead, planGraphQLRead } from "../schema/compiled/graphql-read.js";
import type { ReadPlanner } from "../schema/compiled/read-planner.js";
import type { GraphQLContext } from "../schema/context.js";
import { isPersistedRequest } from "./persisted-documents.js";

export interface CompiledDocuments {
  planner: ReadPlanner;
  /** Once, at startup: each manifest document's operations, with null when compiled, else why executed. */
  planned(plans: readonly { document: string; operation: string; reason: string | null }[]): void;
  /** A compiled read threw; the operation was executed instead. */
  failed(operation: string, error: unknown): void;
  /** Runs a compiled read inside the operation's execute span, when tracing is on. */
  inExecution?<Result>(contextValue: object, run: () => Promise<Result>): Promise<Result>;
}

type Plans = Map<string | null, CompiledGraphQLRead | null>;

/** A result Yoga writes with its own `stringify` (its ExecutionResultWithSerializer). */
type ResultWithText = ExecutionResult & { stringify(result: ExecutionResult): string };

/** The result of a compiled read: its `data` as text, written through `stringify`. */
function resultOf(dataText: string): ResultWithText {
  return {
    data: {},
    // Plugins that add `extensions` (cost, rate limit) spread the result, which keeps this.
    stringify: (result) =>
      result.extensions === undefined
        ? `{"data":${dataText}}`
        : `{"data":${dataText},"extensions":${JSON.stringify(result.extensions)}}`,
  };
}

function operationName(document: DocumentNode, name: string | null | undefined): string {
  return getOperationAST(document, name)?.name?.value ?? "anonymous";
}

/**
 * The plugin answering persisted queries from compiled reads. It runs last
 * among the execution hooks, after the cost limit and the execute span have
 * started; a read it cannot or may not compile is left to execution.
 */
export function compiledDocumentsPlugin(
  schema: GraphQLSchema,
  documents: CompiledDocuments,
  manifest: ReadonlyMap<string, string>,
): Plugin {
  documents.planned(
    [...manifest].flatMap(([id, text]) => {
      const document = parse(text);
      return document.definitions.flatMap((definition) => {
        if (definition.kind !== "OperationDefinition") return [];
        const plan = planGraphQLRead(documents.planner, schema, definition);
        const reason = "reason" in plan ? plan.reason : null;
        return [{ document: id, operation: definition.name?.value ?? "anonymous", reason }];
      });
    }),
  );
  // By the parsed document, which Yoga's document cache keeps while it is in use.
  const plansByDocument = new WeakMap<DocumentNode, Plans>();
  const planOf = (document: DocumentNode, name: string | null): CompiledGraphQLRead | null => {
    let plans = plansByDocument.get(document);
    if (!plans) {
      plans = new Map();
      plansByDocument.set(document, plans);
    }
    if (plans.has(name)) return plans.get(name) ?? null;
    const operation = getOperationAST(document, name);
    const plan =
      operation?.operation === "query" ? planGraphQLRead(documents.planner, schema, operation) : null;
    const compiled = plan && "compiled" in plan ? plan.compiled : null;
    plans.set(name, compiled);
    return compiled;
  };
  return {
    // Not async: an operation left to execution is not made to wait a turn for a promise.
    onExecute({ args, setResultAndStopExecution }) {
      // Yoga makes every operation's context with `contextFor` (yoga.ts), over its own (`params`).
      const context = args.contextValue as GraphQLContext & YogaInitialContext;
      if (!isPersistedRequest(context.request)) return;
      const read = planOf(args.document, args.operationName ?? null)?.prepare(
        args.variableValues ?? {},
        context,
      );
      if (!read) return;
      return (documents.inExecution ? documents.inExecution(context, read) : read()).then(
        (data) => setResultAndStopExecution(resultOf(data)),
        (error: unknown) => documents.failed(operationName(args.document, args.operationName), error),
      );
    },
  };
}
