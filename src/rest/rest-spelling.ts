import {
  type GraphQLEnumType,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";

// The contract's spelling (snake_case keys, contract enum values) and GraphQL's:
// request values are turned into GraphQL's and checked as execution would;
// enum values in results are turned back.

/** firstName → first_name, tagIds → tag_ids. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The contract's spelling of each GraphQL enum value, and back (`extensions.contractValue`). */
export interface EnumSpelling {
  toContract: Map<string, string>;
  fromContract: Map<string, string>;
}

const spellings = new WeakMap<GraphQLEnumType, EnumSpelling>();

export function enumSpelling(type: GraphQLEnumType): EnumSpelling {
  let spelling = spellings.get(type);
  if (!spelling) {
    spelling = { toContract: new Map(), fromContract: new Map() };
    for (const value of type.getValues()) {
      const contract = (value.extensions as { contractValue?: string }).contractValue ?? value.name;
      spelling.toContract.set(value.name, contract);
      spelling.fromContract.set(contract, value.name);
    }
    spellings.set(type, spelling);
  }
  return spelling;
}

/** The whole numbers an `Int` holds (32 bits, as GraphQL and the database's `integer` do). */
export const INT_RANGE = { minimum: -2147483648, maximum: 2147483647 } as const;

function isInt32(value: number): boolean {
  return value >= INT_RANGE.minimum && value <= INT_RANGE.maximum;
}

const EXPECTED_SCALAR: Record<string, string> = {
  String: "must be a string",
  Int: "must be a whole number",
  Float: "must be a number",
  Boolean: "must be true or false",
  UUID: "must be a UUID",
  Date: "must be a date in the form YYYY-MM-DD",
  DateTime: "must be a date-time such as 2025-01-31T09:30:00.000Z",
};

/** What a value of `type` must look like, in words a REST client understands. */
export function describeExpected(type: GraphQLInputType): string {
  if (isNonNullType(type)) return describeExpected(type.ofType);
  if (isListType(type)) return "must be an array";
  const named = getNamedType(type);
  if (isEnumType(named)) return `must be one of: ${[...enumSpelling(named).fromContract.keys()].join(", ")}`;
  if (isInputObjectType(named)) return "must be an object";
  return EXPECTED_SCALAR[named.name] ?? `must be a valid ${named.name}`;
}

export interface VariableProblem {
  /** Path in GraphQL names: variable, then input fields and list indexes. */
  path: (string | number)[];
  code: "required" | "invalid" | "out_of_range";
  message: string;
}

/**
 * Turns a variable's value in the contract's spelling (snake_case keys,
 * contract enum values) into the GraphQL spelling of `type`, checking it as
 * GraphQL's coercion would. Keys the type does not know are dropped: the
 * contract's clients may send fields we do not use. Problems of shape (an
 * unknown enum value, one value where an array belongs) come before the
 * others, as clients have always been told them.
 */
export function toGraphQLVariable(
  name: string,
  value: unknown,
  type: GraphQLInputType,
  problems: VariableProblem[],
): unknown {
  const shape: VariableProblem[] = [];
  const others: VariableProblem[] = [];
  const converted = convert(value, type, [name], shape, others);
  problems.push(...shape, ...others);
  return converted;
}

function convert(
  value: unknown,
  type: GraphQLInputType,
  path: (string | number)[],
  shape: VariableProblem[],
  others: VariableProblem[],
): unknown {
  const invalid = (problems: VariableProblem[]) => {
    problems.push({ path, code: "invalid", message: describeExpected(type) });
    return null;
  };
  if (isNonNullType(type)) {
    if (value !== null && value !== undefined) return convert(value, type.ofType, path, shape, others);
    others.push({ path, code: "required", message: "is required" });
    return value;
  }
  if (value === null || value === undefined) return value;
  if (isListType(type)) {
    // GraphQL would wrap a single value in a list; a JSON client that sent
    // one value where the contract has an array made a mistake.
    if (!Array.isArray(value)) return invalid(shape);
    return value.map((item, index) => convert(item, type.ofType, [...path, index], shape, others));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== "object" || Array.isArray(value)) return invalid(others);
    const source = value as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(type.getFields())) {
      const key = snakeCase(name);
      if (key in source) result[name] = convert(source[key], field.type, [...path, name], shape, others);
      else if (isNonNullType(field.type) && field.defaultValue === undefined)
        others.push({ path: [...path, name], code: "required", message: "is required" });
    }
    return result;
  }
  if (isEnumType(type)) {
    if (typeof value !== "string") return invalid(others);
    return enumSpelling(type).fromContract.get(value) ?? invalid(shape);
  }
  // A whole number past GraphQL's 32-bit Int is a number out of range, not a malformed one.
  if (type.name === "Int" && Number.isInteger(value) && !isInt32(value as number)) {
    const message =
      (value as number) > 0
        ? `must be at most ${INT_RANGE.maximum}`
        : `must be at least ${INT_RANGE.minimum}`;
    others.push({ path, code: "out_of_range", message });
    return null;
  }
  try {
    if (type.parseValue(value) === undefined) return invalid(others);
  } catch {
    return invalid(others);
  }
  return value;
}

/**
 * Where in a result enum values and decimals sit, by response key, so that
 * only those places are visited to put them in the contract's spelling.
 */
export type EnumPlan = Map<string, { spelling?: Map<string, string>; decimal?: true; children?: EnumPlan }>;

declare global {
  interface JSON {
    /** A JSON text placed as is by JSON.stringify (Node.js 21+). */
    rawJSON(text: string): object;
  }
}

/** Rewrites enum values in `data` (in place) to the contract's spelling, and decimals to exact JSON numbers. */
export function applyEnumPlan(data: unknown, plan: EnumPlan): void {
  if (Array.isArray(data)) {
    for (const item of data) applyEnumPlan(item, plan);
    return;
  }
  if (typeof data !== "object" || data === null) return;
  const record = data as Record<string, unknown>;
  for (const [key, entry] of plan) {
    const value = record[key];
    if (entry.spelling) {
      const spelling = entry.spelling;
      record[key] = Array.isArray(value)
        ? value.map((item) => spelling.get(item as string) ?? item)
        : typeof value === "string"
          ? (spelling.get(value) ?? value)
          : value;
    } else if (entry.decimal && typeof value === "string") {
      // The contract writes amounts as JSON numbers: the exact digits go out as the number's text.
      record[key] = JSON.rawJSON(value);
    } else if (entry.children) {
      applyEnumPlan(value, entry.children);
    }
  }
}
