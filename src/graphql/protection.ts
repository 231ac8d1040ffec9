import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { ExecutionResult, ValidationRule } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { GraphQLConfig } from "../config.js";
import type { ExpensiveWork } from "../http/expensive-work.js";
import { costLimitPlugin, costReportPlugin } from "./cost.js";
import { errorCodesPlugin } from "./error-codes.js";
import { type RefusalCode, refusal } from "./refusal.js";
import { workBoundsPlugin } from "./work-bounds.js";

export type { RefusalCode } from "./refusal.js";

type ArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;
type ArmorCallbacks = Pick<NonNullable<ArmorConfig["maxDepth"]>, "onReject" | "propagateOnRejection">;

/**
 * graphql-armor's errors carry no code and a misleading "Syntax Error:"
 * prefix; report our own instead. Validation limits report to the validation
 * context; the token limit runs inside the parser, where throwing is the only
 * way out.
 */
function reportAs(code: RefusalCode): ArmorCallbacks {
  return {
    propagateOnRejection: false,
    onReject: [
      (context, error) => {
        const clear = refusal(code, error.message.replace(/^Syntax Error: /, ""));
        if (!context) throw clear;
        context.reportError(clear);
      },
    ],
  };
}

const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === "__schema" || node.name.value === "__type") {
      context.reportError(refusal("INTROSPECTION_DISABLED", "Introspection is disabled on this server"));
    }
  },
});

const SUGGESTION = / ?Did you mean [^?]*\?/g;

/** Without introspection, "Did you mean …?" in validation and coercion errors would leak the schema. */
function withoutSuggestions(result: ExecutionResult): void {
  for (const error of result.errors ?? []) {
    if (SUGGESTION.test(error.message)) error.message = error.message.replace(SUGGESTION, "");
    SUGGESTION.lastIndex = 0;
  }
}

/**
 * Limits on what one operation may ask for, checked before it runs (shape by
 * graphql-armor at validation, cost at execution when the variables are
 * known), bounds on the work it may then do, a code on every error, and
 * introspection off when configured. They apply to /graphql only: the REST
 * adapter executes its own fixed documents directly.
 */
export function protectionPlugins(
  { introspection, limits, work }: GraphQLConfig,
  expensiveWork: ExpensiveWork,
): Plugin[] {
  const plugins: Plugin[] = [
    errorCodesPlugin(),
    EnvelopArmorPlugin({
      // Replaced below by a scrub that also covers enum and variable errors.
      blockFieldSuggestion: { enabled: false },
      maxDepth: { n: limits.maxDepth, flattenFragments: true, ...reportAs("DEPTH_LIMIT_EXCEEDED") },
      maxAliases: { n: limits.maxAliases, ...reportAs("ALIAS_LIMIT_EXCEEDED") },
      // Priced at execution instead (costLimitPlugin): armor sees no variables or default page sizes.
      costLimit: { enabled: false },
      maxTokens: { n: limits.maxTokens, ...reportAs("TOKEN_LIMIT_EXCEEDED") },
      maxDirectives: { n: limits.maxDirectives, ...reportAs("DIRECTIVE_LIMIT_EXCEEDED") },
    }),
    costLimitPlugin(limits),
    costReportPlugin(),
    workBoundsPlugin(work, expensiveWork),
  ];
  if (!introspection) {
    plugins.push({
      onValidate: ({ addValidationRule }) => addValidationRule(noIntrospection),
      onResultProcess: ({ result }) => {
        if (isAsyncIterable(result)) return;
        for (const single of Array.isArray(result) ? result : [result]) withoutSuggestions(single);
      },
    });
  }
  return plugins;
}
