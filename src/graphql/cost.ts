import {
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  TypeInfo,
  ValidationContext,
  type ValueNode,
  type VariableDefinitionNode,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { type ComplexityEstimator, createComplexityRule } from "graphql-query-complexity";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { GraphQLLimits } from "../config.js";
import { keptIn } from "../schema/kept-in.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../schema/page-window.js";
import { coercedVariables } from "../schema/variable-values.js";
import { refusal } from "./refusal.js";

// The weights graphql-armor's cost limit used, so that GRAPHQL_MAX_COST keeps
// its meaning: a leaf costs 1, a field with a selection 2 plus 1.5 times what
// it selects, and a connection that times its page size.
const LEAF_COST = 1;
const OBJECT_COST = 2;
const NESTING_FACTOR = 1.5;
/** Fragment spreads expanded beyond this many selections are refused unpriced (fragment bombs). */
const MAX_PRICED_SELECTIONS = 10_000;

/** A connection is a type with `edges` and `pageInfo`; its resolver returns at most `first` (or `last`) items. */
function pageSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return 1;
  const fields = type.getFields();
  if (!fields.edges || !fields.pageInfo) return 1;
  const requested = [args.first, args.last].find((value): value is number => typeof value === "number");
  // Out-of-range sizes are refused by the resolver before any read, so they cost no more than the largest page.
  return Math.min(Math.max(requested ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
}

const estimate: ComplexityEstimator = ({ field, node, args, childComplexity }) => {
  if (field.name === "__schema") return 0;
  if (!node.selectionSet) return LEAF_COST;
  return (OBJECT_COST + NESTING_FACTOR * childComplexity) * pageSize(field, args);
};

export type OperationCost =
  | { kind: "priced"; cost: number }
  /** The operation expands to more selections than can be priced. */
  | { kind: "unpriceable"; reason: string }
  /** The variables do not fit their types: execution will refuse them before any resolver runs. */
  | { kind: "invalid-variables" };

/**
 * What the operation that will execute costs, with the page sizes it will
 * really get: literal arguments, variables' values and the default page size.
 * Fields skipped by `@skip`/`@include` cost nothing.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): OperationCost {
  const operation = getOperationAST(document, operationName);
  const typeInfo = new TypeInfo(schema);
  const errors: GraphQLError[] = [];
  const context = new ValidationContext(schema, document, typeInfo, (error) => errors.push(error));
  const visitor = createComplexityRule({
    maximumComplexity: Number.POSITIVE_INFINITY,
    estimators: [estimate],
    variables: variables ?? {},
    operationName: operation?.name?.value,
    maxQueryNodes: MAX_PRICED_SELECTIONS,
  })(context);
  try {
    visit(document, visitWithTypeInfo(typeInfo, visitor));
  } catch (error) {
    if (error instanceof Error) return { kind: "unpriceable", reason: error.message };
    throw error;
  }
  // Variable errors stop the pricing before any field; an argument error only
  // leaves out its field, which will not run either.
  if (errors.some((error) => error.message.startsWith("Variable "))) return { kind: "invalid-variables" };
  return { kind: "priced", cost: Math.round(visitor.complexity) };
}

/** What an operation over /graphql was priced at: for `extensions` and logs. */
export interface PricedOperation {
  cost: number;
  limit: number;
}

const pricedOperations = new WeakMap<object, PricedOperation>();

/** The price of the operation running with this context, once it has been priced. */
export function pricedOperationOf(context: object): PricedOperation | undefined {
  return pricedOperations.get(context);
}

/** Prices kept per operation of a document: one per combination of the values its price reads. */
const MAX_PRICES_PER_OPERATION = 16;
/** Longest key of variables' values whose price is kept; larger values are priced on every request. */
const MAX_PRICE_KEY_LENGTH = 512;

/** Arguments whose value the price reads: page sizes of connections (`pageSize`). */
const PAGE_SIZE_ARGUMENTS = new Set(["first", "last"]);
/** Directives whose `if` the price reads: what they leave out costs nothing. */
const CONDITION_DIRECTIVES = new Set(["skip", "include"]);

/**
 * The variables whose values the price reads: those in a page size or a
 * `@skip`/`@include` condition, in the operation or any fragment it spreads.
 */
function variablesThePriceReads(document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const read = new Set<string>();
  const collect = (value: ValueNode) => {
    visit(value, { Variable: (variable) => void read.add(variable.name.value) });
  };
  const spread = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  for (let node = pending.pop(); node; node = pending.pop()) {
    visit(node, {
      Field(field) {
        for (const argument of field.arguments ?? []) {
          if (PAGE_SIZE_ARGUMENTS.has(argument.name.value)) collect(argument.value);
        }
      },
      Directive(directive) {
        if (!CONDITION_DIRECTIVES.has(directive.name.value)) return;
        for (const argument of directive.arguments ?? []) collect(argument.value);
      },
      FragmentSpread({ name }) {
        const fragment = fragments.get(name.value);
        if (!fragment || spread.has(name.value)) return;
        spread.add(name.value);
        pending.push(fragment.selectionSet);
      },
    });
  }
  return read;
}

/**
 * The key of the price of a request: the values of the variables the price
 * reads, and of every other variable only whether it is missing, null or set
 * (a missing or null argument of a non-null type leaves its field unpriced).
 * Null when those values are not all plain JSON or make too long a key.
 */
function priceKey(
  definitions: readonly VariableDefinitionNode[],
  variablesRead: ReadonlySet<string>,
  variables: Readonly<Record<string, unknown>> | null | undefined,
  coerced: Readonly<Record<string, unknown>>,
): string | null {
  let key = "";
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    let part: string | null;
    if (variablesRead.has(name)) {
      // Absent and null differ: an absent variable takes its default.
      part = variables && Object.hasOwn(variables, name) ? jsonText(variables[name]) : "-";
    } else {
      part = !Object.hasOwn(coerced, name) ? "-" : coerced[name] === null ? "0" : "1";
    }
    if (part === null) return null;
    key += `${part},`;
    if (key.length > MAX_PRICE_KEY_LENGTH) return null;
  }
  return key;
}

/** JSON text of a value parsed from JSON, or null for anything else (a file of a multipart request). */
function jsonText(value: unknown): string | null {
  return isPlainJson(value) ? JSON.stringify(value) : null;
}

function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === "boolean" || typeof value === "string") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (depth > 8 || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isPlainJson(item, depth + 1));
}

/** The prices kept for one operation of a document, and the variables they depend on. */
interface OperationPrices {
  variablesRead: ReadonlySet<string>;
  byKey: Map<string, OperationCost>;
}

/**
 * `operationCost` remembered per parsed document: a document sent again is
 * the same DocumentNode from Yoga's parse cache (document-cache.ts), so its
 * prices live exactly as long as it, a few per operation.
 */
function pricesByDocument() {
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, OperationPrices>>>();
  const pricesOf = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationKey: string,
    operation: OperationDefinitionNode,
  ): OperationPrices => {
    const byDocument = keptIn(bySchema, schema, () => new WeakMap());
    const byOperation = keptIn(byDocument, document, () => new Map());
    return keptIn(byOperation, operationKey, () => ({
      variablesRead: variablesThePriceReads(document, operation),
      byKey: new Map(),
    }));
  };
  return (args: ExecutionArgs): OperationCost => {
    const { schema, document, operationName, variableValues } = args;
    const operation = getOperationAST(document, operationName);
    if (!operation) return operationCost(schema, document, operationName, variableValues);
    const definitions = operation.variableDefinitions ?? [];
    // Variables that do not fit their types are priced (as invalid) anew, never kept.
    const coerced = coercedVariables(schema, definitions, variableValues);
    if (coerced.errors) return operationCost(schema, document, operationName, variableValues);
    const prices = pricesOf(schema, document, operationName ?? "", operation);
    const key = priceKey(definitions, prices.variablesRead, variableValues, coerced.coerced);
    if (key === null) return operationCost(schema, document, operationName, variableValues);
    let priced = prices.byKey.get(key);
    if (!priced) {
      priced = operationCost(schema, document, operationName, variableValues);
      // The oldest goes first.
      if (prices.byKey.size >= MAX_PRICES_PER_OPERATION)
        prices.byKey.delete(prices.byKey.keys().next().value ?? "");
      prices.byKey.set(key, priced);
    }
    return priced;
  };
}

/**
 * Prices the operation about to run from the page sizes it will really get
 * (literal, variable or default `first`) and refuses it unexecuted when it
 * costs more than the limit. Runs at execution, where the variables' values
 * are known, before any resolver.
 */
export function costLimitPlugin(limits: GraphQLLimits): Plugin {
  const priceOf = pricesByDocument();
  const check = (args: ExecutionArgs): GraphQLError | null => {
    const priced = priceOf(args);
    if (priced.kind === "invalid-variables") return null;
    if (priced.kind === "unpriceable") {
      return refusal("COST_LIMIT_EXCEEDED", `Query cost cannot be computed: ${priced.reason}`);
    }
    const context = args.contextValue;
    if (typeof context === "object" && context !== null) {
      pricedOperations.set(context, { cost: priced.cost, limit: limits.maxCost });
    }
    if (priced.cost <= limits.maxCost) return null;
    return refusal(
      "COST_LIMIT_EXCEEDED",
      `Query Cost limit of ${limits.maxCost} exceeded, found ${priced.cost}. Ask for smaller pages (first) of nested connections.`,
      { cost: { requested: priced.cost, limit: limits.maxCost } },
    );
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
}

/** What a caller has left of its rate limit, as the RateLimit-* headers say it. */
export interface RateLimitStanding {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

function rateLimitOf(context: unknown): RateLimitStanding | undefined {
  if (typeof context !== "object" || context === null || !("rateLimit" in context)) return undefined;
  const { rateLimit } = context as { rateLimit?: RateLimitStanding };
  return rateLimit;
}

/**
 * Every executed result says what its operation cost and what the caller has
 * left, so a client can pace itself without parsing headers:
 * `extensions.cost: { requested, limit }` (the figures a refusal reports) and
 * `extensions.rateLimit: { limit, remaining, resetSeconds }`.
 */
export function costReportPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || typeof context !== "object" || context === null) return;
          const priced = pricedOperationOf(context);
          const rateLimit = rateLimitOf(context);
          if (!priced && !rateLimit) return;
          setResult({
            ...result,
            extensions: {
              ...result.extensions,
              ...(priced ? { cost: { requested: priced.cost, limit: priced.limit } } : {}),
              ...(rateLimit
                ? {
                    rateLimit: {
                      limit: rateLimit.limit,
                      remaining: rateLimit.remaining,
                      resetSeconds: rateLimit.resetSeconds,
                    },
                  }
                : {}),
            },
          });
        },
      };
    },
  };
}
