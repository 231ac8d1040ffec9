// How the configuration table is made: each leaf is a setting that reads
// environment variables; each group of leaves is an object. The table's shape
// is the shape of AppConfig (ConfigOf), and reading it is one walk (readTable).
import type { z } from "zod";

/** What a variable looks like in the docs' tables. */
export interface VariableDocs {
  readonly name: string;
  /** The text used when the variable is unset or empty, as an operator would write it. */
  readonly default: string | null;
  /** What leaving it unset means, for a variable without default text. */
  readonly whenUnset: string | null;
  /** Markdown, relative to the document whose table lists the variable. */
  readonly description: string;
}

/** Marks a value that could not be read; its variable's problem has been recorded. */
export const INVALID: unique symbol = Symbol("invalid");
export type Invalid = typeof INVALID;

/** A leaf of the table: where one AppConfig field comes from. */
export interface Setting<Value> {
  readonly kind: "setting";
  /** The variables it reads, in the order the docs list them; none when it reads no variable of its own. */
  readonly variables: readonly VariableDocs[];
  read(reading: Reading): Value | Invalid;
}

export interface SettingsTree {
  readonly [key: string]: Setting<unknown> | SettingsTree;
}

/** The configuration a table gives: each setting replaced by its value. */
export type ConfigOf<Tree> =
  Tree extends Setting<infer Value> ? Value : { -readonly [K in keyof Tree]: ConfigOf<Tree[K]> };

/** The environment being read, the values read so far, and one line per bad variable. */
export class Reading {
  readonly problems: string[] = [];
  private readonly values = new Map<string, unknown>();
  private readonly invalid = new Set<string>();

  constructor(readonly environment: NodeJS.ProcessEnv) {}

  /** The variable's text; an empty one counts as unset. */
  given(name: string): string | undefined {
    const text = this.environment[name];
    return text === undefined || text === "" ? undefined : text;
  }

  refuse(name: string, why: string): Invalid {
    this.problems.push(`${name}: ${why}`);
    this.invalid.add(name);
    return INVALID;
  }

  settle(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  /** Default text with each `${NAME}` replaced by that earlier variable's value; invalid when that one is. */
  expand(text: string): string | Invalid {
    let dependsOnInvalid = false;
    const expanded = text.replace(/\$\{(\w+)\}/g, (_, name: string) => {
      if (this.invalid.has(name)) dependsOnInvalid = true;
      else if (!this.values.has(name))
        throw new Error(`a default names ${name}, which the table reads later`);
      return String(this.values.get(name));
    });
    return dependsOnInvalid ? INVALID : expanded;
  }
}

interface VariableSpec<Value> {
  name: string;
  /** From the variable's text to its value; the first issue's message is the problem reported. */
  schema: z.ZodType<Value>;
  description: string;
}

function parseVariable<Value>(spec: VariableSpec<Value>, text: string, reading: Reading): Value | Invalid {
  const parsed = spec.schema.safeParse(text);
  if (!parsed.success) return reading.refuse(spec.name, parsed.error.issues[0]?.message ?? "is not valid");
  reading.settle(spec.name, parsed.data);
  return parsed.data;
}

/** A variable with a default: its value is never missing. `${NAME}` in the default names an earlier variable. */
export function variable<Value>(spec: VariableSpec<Value> & { default: string }): Setting<Value> {
  return {
    kind: "setting",
    variables: [{ name: spec.name, default: spec.default, whenUnset: null, description: spec.description }],
    read(reading) {
      const text = reading.given(spec.name) ?? reading.expand(spec.default);
      return text === INVALID ? INVALID : parseVariable(spec, text, reading);
    },
  };
}

/** A variable that may stay unset: then its value is null. */
export function optionalVariable<Value>(
  spec: VariableSpec<Value> & { whenUnset: string },
): Setting<Value | null> {
  return {
    kind: "setting",
    variables: [{ name: spec.name, default: null, whenUnset: spec.whenUnset, description: spec.description }],
    read(reading) {
      const text = reading.given(spec.name);
      if (text !== undefined) return parseVariable(spec, text, reading);
      reading.settle(spec.name, null);
      return null;
    },
  };
}

/** Several variables that make one value together; `refuse` names the variable a combination is wrong for. */
export function combine<Parts extends SettingsTree, Value>(
  parts: Parts,
  value: (values: ConfigOf<Parts>, refuse: (name: string, why: string) => Invalid) => Value | Invalid,
): Setting<Value> {
  return {
    kind: "setting",
    variables: listVariables(parts),
    read(reading) {
      const values = readTable(parts, reading);
      return values === INVALID ? INVALID : value(values, (name, why) => reading.refuse(name, why));
    },
  };
}

/** A value no variable sets. */
export function fixed<Value>(value: Value): Setting<Value> {
  return { kind: "setting", variables: [], read: () => value };
}

/** Variables read and documented by a module of their own; its problems are reported with the rest. */
export function readElsewhere<Value>(
  read: (environment: NodeJS.ProcessEnv) => { value: Value; problems: string[] },
): Setting<Value> {
  return {
    kind: "setting",
    variables: [],
    read(reading) {
      const { value, problems } = read(reading.environment);
      reading.problems.push(...problems);
      return problems.length > 0 ? INVALID : value;
    },
  };
}

function isSetting(node: Setting<unknown> | SettingsTree): node is Setting<unknown> {
  return node.kind === "setting";
}

/** Reads every setting, so that every bad variable is reported, not only the first. */
export function readTable<Tree extends SettingsTree>(tree: Tree, reading: Reading): ConfigOf<Tree> | Invalid {
  let complete = true;
  const entries = Object.entries(tree).map(([key, node]) => {
    const value = isSetting(node) ? node.read(reading) : readTable(node, reading);
    if (value === INVALID) complete = false;
    return [key, value] as const;
  });
  // Object.entries forgets which key holds which setting; each entry is the value of the setting under its key,
  // which is what ConfigOf<Tree> says.
  return complete ? (Object.fromEntries(entries) as ConfigOf<Tree>) : INVALID;
}

/** Every variable of the table, in its order. */
export function listVariables(tree: SettingsTree): VariableDocs[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? node.variables : listVariables(node)));
}
