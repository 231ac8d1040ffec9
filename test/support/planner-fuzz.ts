// The differential check of the read planner: one generated document run
// through the planner (plan, prepare, run, the JSON text of `data`) and
// through reference execution (graphql-js over the Pothos resolvers, the
// result as Yoga serializes it), as one buyer. The two must answer the same
// bytes; where the planner does not answer, it says why.
import { execute, Kind, type OperationDefinitionNode, parse } from "graphql";
import { planGraphQLRead } from "../../src/schema/compiled/graphql-read.js";
import type { ReadPlanner } from "../../src/schema/compiled/read-planner.js";
import { RowValueError } from "../../src/schema/compiled/writers.js";
import type { GraphQLContext } from "../../src/schema/context.js";
import { schema } from "../../src/schema/index.js";
import type { GeneratedDocument } from "./document-generator.js";

export type FuzzOutcome =
  /** The planner answered, with the bytes execution gave. */
  | { kind: "same" }
  /** The planner did not plan the document, for `reason` (with its code, when the planner gives one). */
  | { kind: "refused"; reason: string; code: string | undefined }
  /** Planned, but this request's arguments are left to execution, which refused them too. */
  | { kind: "declined" }
  /** The plan's read met a row value it leaves to execution (RowValueError), as the endpoint does. */
  | { kind: "fell back"; reason: string }
  /** A different answer: the case to report. */
  | { kind: "differs"; planned: string; executed: string };

/** The one operation of a generated document, with its fragments' definitions beside it. */
function operationOf(text: string): OperationDefinitionNode {
  const operation = parse(text).definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error("a generated document without an operation");
  return operation;
}

/** What the planner and execution answer for `generated`, as the buyer of `context`. */
export async function compareAnswers(
  planner: ReadPlanner,
  generated: GeneratedDocument,
  context: () => GraphQLContext,
): Promise<FuzzOutcome> {
  const document = parse(generated.text);
  const executed = await execute({
    schema,
    document,
    contextValue: context(),
    variableValues: generated.variables,
  });
  // Yoga writes `data` and `errors` with JSON.stringify; a refused request has errors.
  const executedText = JSON.stringify({ data: executed.data, errors: executed.errors });
  const plan = planGraphQLRead(planner, schema, operationOf(generated.text));
  if ("reason" in plan)
    return {
      kind: "refused",
      reason: plan.reason,
      code: "refusal" in plan ? String(plan.refusal) : undefined,
    };
  const read = plan.compiled.prepare(generated.variables, context());
  if (!read) {
    if (executed.errors?.length) return { kind: "declined" };
    return { kind: "differs", planned: "(left to execution, which answered)", executed: executedText };
  }
  let data: string;
  try {
    data = await read();
  } catch (error) {
    if (error instanceof RowValueError) return { kind: "fell back", reason: error.message };
    return { kind: "differs", planned: `(threw ${String(error)})`, executed: executedText };
  }
  const planned = `{"data":${data}}`;
  return planned === executedText ? { kind: "same" } : { kind: "differs", planned, executed: executedText };
}

/**
 * How refusals are named: by the planner's code when it gives one (each
 * code in `codes`), else by the first pattern its reason matches.
 */
export interface RefusalNames {
  codes: readonly string[];
  patterns: Readonly<Record<string, RegExp>>;
}

/** Counts of outcomes over a run, by kind and, for refusals, by named reason. */
export class FuzzTally {
  readonly documents = { total: 0, same: 0, declined: 0, fellBack: 0, differs: 0 };
  readonly refusals = new Map<string, number>();
  /** Refusal reasons no name in the list matches. */
  readonly unnamed = new Set<string>();
  readonly differences: { generated: GeneratedDocument; planned: string; executed: string }[] = [];

  constructor(private readonly names: RefusalNames) {}

  add(generated: GeneratedDocument, outcome: FuzzOutcome): void {
    this.documents.total += 1;
    switch (outcome.kind) {
      case "same":
        this.documents.same += 1;
        return;
      case "declined":
        this.documents.declined += 1;
        return;
      case "fell back":
        this.documents.fellBack += 1;
        return;
      case "differs":
        this.documents.differs += 1;
        this.differences.push({ generated, planned: outcome.planned, executed: outcome.executed });
        return;
      case "refused": {
        const { codes, patterns } = this.names;
        const name =
          outcome.code === undefined
            ? Object.entries(patterns).find(([, pattern]) => pattern.test(outcome.reason))?.[0]
            : codes.find((code) => code === outcome.code);
        if (!name) this.unnamed.add(outcome.reason);
        const counted = name ?? `(unnamed) ${outcome.code ?? ""} ${outcome.reason}`;
        this.refusals.set(counted, (this.refusals.get(counted) ?? 0) + 1);
      }
    }
  }

  /** The figures, for the test's output. */
  summary(): string {
    const refusals = [...this.refusals]
      .sort(([, a], [, b]) => b - a)
      .map(([reason, count]) => `  ${count}\t${reason}`);
    return [`documents ${JSON.stringify(this.documents)}`, "refusals by reason:", ...refusals].join("\n");
  }
}
