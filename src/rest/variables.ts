import {
  coerceInputValue,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";
import { describeExpected, enumSpelling, inputTypeAtPath, snakeCase } from "./rest-spelling.js";

export interface VariableProblem {
  /** Path in GraphQL names: variable, then input fields and list indexes. */
  path: (string | number)[];
  code: "required" | "invalid";
  message: string;
}

/**
 * Turns a value in the contract's spelling (snake_case keys, contract enum
 * values) into the GraphQL spelling of `type`. Keys the type does not know
 * are dropped: the contract's clients may send fields we do not use.
 */
export function toGraphQLValue(
  value: unknown,
  type: GraphQLInputType,
  path: (string | number)[],
  problems: VariableProblem[],
): unknown {
  if (isNonNullType(type)) return toGraphQLValue(value, type.ofType, path, problems);
  if (value === null || value === undefined) return value;
  if (isListType(type)) {
    if (!Array.isArray(value)) {
      // GraphQL would wrap a single value in a list; a JSON client that sent
      // one value where the contract has an array made a mistake.
      problems.push({ path, code: "invalid", message: describeExpected(type) });
      return null;
    }
    return value.map((item, index) => toGraphQLValue(item, type.ofType, [...path, index], problems));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== "object" || Array.isArray(value)) return value;
    const source = value as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(type.getFields())) {
      const key = snakeCase(name);
      if (key in source) result[name] = toGraphQLValue(source[key], field.type, [...path, name], problems);
    }
    return result;
  }
  if (isEnumType(type) && typeof value === "string") {
    const name = enumSpelling(type).fromContract.get(value);
    if (name !== undefined) return name;
    problems.push({ path, code: "invalid", message: describeExpected(type) });
    // A valid stand-in keeps coercion checking the rest; the request fails anyway.
    return type.getValues()[0]?.name;
  }
  return value;
}

const MISSING_FIELD = /^Field "(\w+)" of required type ".+" was not provided\.$/;

/** Coerces a variable as GraphQL execution will, collecting every problem with a path. */
export function checkVariable(
  name: string,
  value: unknown,
  type: GraphQLInputType,
  problems: VariableProblem[],
): void {
  coerceInputValue(value, type, (errorPath, invalidValue, error) => {
    // graphql-js reports a missing required field at its parent, naming it only in the message.
    const missingField = MISSING_FIELD.exec(error.message)?.[1];
    if (missingField) {
      problems.push({ path: [name, ...errorPath, missingField], code: "required", message: "is required" });
      return;
    }
    const path = [name, ...errorPath];
    if (problems.some((problem) => samePath(problem.path, path))) return;
    const expected = inputTypeAtPath(type, errorPath);
    if (invalidValue === undefined || invalidValue === null) {
      problems.push({ path, code: "required", message: "is required" });
    } else {
      problems.push({ path, code: "invalid", message: describeExpected(expected) });
    }
  });
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}
