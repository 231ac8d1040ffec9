// The differential check of the read planner: one generated document run
// through the planner (plan, prepare, run, the JSON text of `data`) and
// through reference execution (graphql-js over the Pothos resolvers, the
// result as Yoga serializes it), as one buyer. The two must answer the same
// bytes; where the planner does not answer, it says why.
import {
  type DocumentNode,
  execute,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import type { GraphQLContext } from "../../src/schema/context.js";
import { schema } from "../../src/schema/index.js";
import { planGraphQLRead } from "../../src/schema/planner/graphql-read.js";
import type { ReadPlanner } from "../../src/schema/planner/read-planner.js";
import { ArgumentsRefusedError, RowValueError } from "../../src/schema/planner/writers.js";
import type { GeneratedDocument } from "./document-generator.js";

export type FuzzOutcome =
  /** The planner answered, with the bytes execution gave. */
  | { kind: "same" }
  /** The planner did not plan the document, for `reason`, counted under `code`. */
  | { kind: "refused"; reason: string; code: string }
  /** Planned, but this request's arguments are left to execution, which refused them too. */
  | { kind: "declined" }
  /** The plan's read met a row value it leaves to execution (RowValueError), as the endpoint does. */
  | { kind: "fell back"; reason: string }
  /** A different answer: the case to report. */
  | { kind: "differs"; planned: string; executed: string };

/** The one operation of a generated document (its fragments' definitions are beside it). */
function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
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
  // As the endpoint plans it: for the values its `@skip`/`@include` read, when the variables are valid.
  const operation = operationOf(document);
  const conditions = getVariableValues(schema, operation.variableDefinitions ?? [], generated.variables);
  if (conditions.errors) {
    if (executed.errors?.length) return { kind: "declined" };
    return { kind: "differs", planned: "(variables refused, execution answered)", executed: executedText };
  }
  const plan = planGraphQLRead(planner, schema, document, operation, conditions.coerced);
  if ("reason" in plan) return { kind: "refused", reason: plan.reason, code: plan.refusal };
  const read = plan.planned.prepare(generated.variables, context());
  if (!read) {
    if (executed.errors?.length) return { kind: "declined" };
    return { kind: "differs", planned: "(left to execution, which answered)", executed: executedText };
  }
  let data: string;
  try {
    data = await read();
  } catch (error) {
    if (error instanceof RowValueError) return { kind: "fell back", reason: error.message };
    // Arguments below the root refused where a parent holds them: left to execution, which must refuse them too.
    if (error instanceof ArgumentsRefusedError && executed.errors?.length) return { kind: "declined" };
    return { kind: "differs", planned: `(threw ${String(error)})`, executed: executedText };
  }
  const planned = `{"data":${data}}`;
  return planned === executedText ? { kind: "same" } : { kind: "differs", planned, executed: executedText };
}

/** Counts of outcomes over a run, by kind and, for refusals, by named reason. */
export class FuzzTally {
  readonly documents = { total: 0, same: 0, declined: 0, fellBack: 0, differs: 0 };
  readonly refusals = new Map<string, number>();
  /** Refusal reasons whose code is not one of the known codes. */
  readonly unnamed = new Set<string>();
  readonly differences: { generated: GeneratedDocument; planned: string; executed: string }[] = [];

  constructor(private readonly codes: readonly string[]) {}

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
        const known = this.codes.includes(outcome.code);
        if (!known) this.unnamed.add(outcome.reason);
        const counted = known ? outcome.code : `(unnamed) ${outcome.code} ${outcome.reason}`;
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
