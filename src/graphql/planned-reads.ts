// Every query answered by a planned read: a query document (sent in full,
// by a manifest's id, registered by its hash, or from GraphiQL) is planned
// into one SQL statement the first time it is seen, and a query whose
// selection the planner covers is answered from its rows, with the JSON text
// of its `data` written straight from them. What the planner refuses runs on
// normal execution, counted in /metrics by its reason. Both give the same
// bytes (test/graphql/planned-reads.test.ts).
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import type { Plugin, YogaInitialContext } from "graphql-yoga";
import type { ExecutedQueryReason } from "../http/read-plan-metrics.js";
import type { GraphQLContext } from "../schema/context.js";
import { conditionVariables } from "../schema/planner/collected-selection.js";
import { type PlannedGraphQLRead, planGraphQLRead } from "../schema/planner/graphql-read.js";
import { ArgumentsRefusedError, type PlanRefusal, type ReadPlanner } from "../schema/planner/read-planner.js";
import { readOnReplicaOrPrimary } from "../schema/read-on-replica.js";
import { coercedVariables } from "../schema/variable-values.js";
import { readsOnlyVersionedData } from "./read-routing.js";

export interface PlannedReads {
  planner: ReadPlanner;
  /** Once, at startup: each manifest document's operations, with null when planned, else why executed. */
  planned(plans: readonly { document: string; operation: string; reason: string | null }[]): void;
  /** A query was executed rather than answered by a planned read. */
  executed(reason: ExecutedQueryReason): void;
  /** A planned read threw; the operation was executed instead. */
  failed(operation: string, error: unknown): void;
  /** Runs a planned read inside the operation's execute span, when tracing is on. */
  inExecution?<Result>(contextValue: object, run: () => Promise<Result>): Promise<Result>;
}

/** An operation's plan, or why it has none. */
type Plan = { read: PlannedGraphQLRead } | { refusal: PlanRefusal };

/** A query operation of a document, and its plans by the values of the variables its `@skip`/`@include` read. */
interface OperationPlans {
  operation: OperationDefinitionNode;
  conditions: readonly string[];
  plans: Map<string, Plan>;
}

/** A result Yoga writes with its own `stringify` (its ExecutionResultWithSerializer). */
type ResultWithText = ExecutionResult & { stringify(result: ExecutionResult): string };

/** The result of a planned read: its `data` as text, written through `stringify`. */
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
 * The plugin answering queries from planned reads. It runs last among the
 * execution hooks, after the cost limit and the execute span have started;
 * a query it cannot plan is left to execution.
 */
export function plannedReadsPlugin(
  schema: GraphQLSchema,
  reads: PlannedReads,
  manifest: ReadonlyMap<string, string>,
): Plugin {
  reads.planned(
    [...manifest].flatMap(([id, text]) => {
      const document = parse(text);
      return document.definitions.flatMap((definition) => {
        if (definition.kind !== "OperationDefinition") return [];
        // Planned as if every `@skip`/`@include` on a variable kept its selection.
        const plan = planGraphQLRead(reads.planner, schema, document, definition, null);
        const reason = "reason" in plan ? plan.reason : null;
        return [{ document: id, operation: definition.name?.value ?? "anonymous", reason }];
      });
    }),
  );
  // Plans are kept by the parsed document, so they live exactly as long as
  // it: every way a document arrives (in full, by a manifest id or a hash
  // registered by APQ, whose text the persisted-operations plugin hands on
  // as the query, or from GraphiQL) is parsed through Yoga's parse cache,
  // keyed by the text and bounded by bytes (document-cache.ts), which hands
  // the same DocumentNode back while it keeps it. A document it drops (or
  // never keeps, being larger than its budget) is planned again when next
  // seen, and its old plans go with it; a plan's size follows its document's.
  //
  // A plan holds the selection `@skip`/`@include` leave for the values of the
  // variables they read, so it is kept by those values too: one plan per
  // combination a client sends (at most two to the number of such
  // variables), each planned once, rather than resolving them on every
  // request of a plan made for them all.
  const operationsByDocument = new WeakMap<DocumentNode, Map<string | null, OperationPlans | null>>();
  const operationOf = (document: DocumentNode, name: string | null): OperationPlans | null => {
    let operations = operationsByDocument.get(document);
    if (!operations) {
      operations = new Map();
      operationsByDocument.set(document, operations);
    }
    let entry = operations.get(name);
    if (entry === undefined) {
      const operation = getOperationAST(document, name);
      entry =
        operation?.operation === "query"
          ? { operation, conditions: conditionVariables(document), plans: new Map() }
          : null;
      operations.set(name, entry);
    }
    return entry;
  };
  /** The plan for a request's variables; null when they are refused (execution words the error). */
  const planOf = (
    document: DocumentNode,
    { operation, conditions, plans }: OperationPlans,
    variables: Readonly<Record<string, unknown>>,
  ): Plan | null => {
    let values: Readonly<Record<string, unknown>> = {};
    if (conditions.length > 0) {
      const coerced = coercedVariables(schema, operation.variableDefinitions ?? [], variables).coerced;
      if (!coerced) return null;
      values = coerced;
    }
    const key = conditions.map((name) => (values[name] === true ? "1" : "0")).join("");
    let plan = plans.get(key);
    if (plan === undefined) {
      const outcome = planGraphQLRead(reads.planner, schema, document, operation, values);
      plan = "planned" in outcome ? { read: outcome.planned } : { refusal: outcome.refusal };
      plans.set(key, plan);
    }
    return plan;
  };
  return {
    // Not async: an operation left to execution is not made to wait a turn for a promise.
    onExecute({ args, setResultAndStopExecution }) {
      const operation = operationOf(args.document, args.operationName ?? null);
      // Mutations and subscriptions have no plan, and are not counted.
      if (!operation) return;
      const plan = planOf(args.document, operation, args.variableValues ?? {});
      if (!plan) {
        reads.executed("arguments");
        return;
      }
      if ("refusal" in plan) {
        reads.executed(plan.refusal);
        return;
      }
      // Yoga makes every operation's context with `contextFor` (yoga.ts), over its own.
      const context = args.contextValue as GraphQLContext & YogaInitialContext;
      const variables = args.variableValues ?? {};
      // Deciding sends no statement: a request the read refuses is executed, and its reader chosen there.
      if (!plan.read.prepare(variables, context)) {
        reads.executed("arguments");
        return;
      }
      // On the reader chosen before it runs, as a REST GET: the primary once more when a replica failed it.
      const read = () =>
        readOnReplicaOrPrimary(
          context,
          readsOnlyVersionedData(operation.operation),
          async (
            on,
          ): Promise<{ data: string } | { thrown: unknown } | { refused: ArgumentsRefusedError }> => {
            try {
              const onReader = plan.read.prepare(variables, on);
              if (!onReader) throw new Error("the planned read refused on its reader a request it took");
              return { data: await onReader() };
            } catch (error) {
              if (error instanceof ArgumentsRefusedError) return { refused: error };
              return { thrown: error };
            }
          },
          (outcome) => ("thrown" in outcome ? outcome.thrown : undefined),
        );
      return (reads.inExecution ? reads.inExecution(context, read) : read()).then((outcome) => {
        if ("data" in outcome) return setResultAndStopExecution(resultOf(outcome.data));
        // Arguments below the root that execution refuses, where a parent holds them: execution words the error.
        if ("refused" in outcome) return reads.executed("arguments");
        reads.executed("failed");
        reads.failed(operationName(args.document, args.operationName), outcome.thrown);
      });
    },
  };
}
