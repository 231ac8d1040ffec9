import type { z } from "zod";
import { TOP_LEVEL_KEYS } from "./format.js";

/** One thing wrong with an import file, named by its JSON path (`orders[3].order_status`). */
export interface ImportProblem {
  path: string;
  message: string;
}

export function formatProblem(problem: ImportProblem): string {
  return problem.path === "" ? problem.message : `${problem.path}: ${problem.message}`;
}

export function jsonPath(segments: readonly PropertyKey[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else path += path === "" ? String(segment) : `.${String(segment)}`;
  }
  return path;
}

function describeExpected(expected: string): string {
  switch (expected) {
    case "array":
      return "a list";
    case "object":
      return "an object";
    case "int":
      return "a whole number";
    default:
      return `a ${expected}`;
  }
}

/**
 * Zod's default wording names types the way TypeScript does; operators reading
 * a failed import want to know what to write instead.
 */
export const issueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is required" : `must be ${describeExpected(issue.expected)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => String(value)).join(", ")}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string") return "must not be blank";
      if (issue.origin === "array") return `must have at least ${issue.minimum} items`;
      return `must be at least ${issue.minimum}`;
    case "invalid_format":
      if (issue.format === "uuid") return "must be a UUID";
      if (issue.format === "datetime")
        return "must be an ISO 8601 date-time with a time zone, such as 2025-01-31T09:00:00.000Z";
      return undefined;
    default:
      return undefined;
  }
};

/** Zod issues as problems, under `prefix`; an unknown field becomes one problem per field. */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const issue of issues) {
    const at = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) problems.push({ path: jsonPath([...at, key]), message: "unknown field" });
    } else {
      problems.push({ path: jsonPath(at), message: issue.message });
    }
  }
  return problems;
}

const LEADING = /^([^.[]*)(?:\[(\d+)\])?/;

/** In file order: by top-level key as docs/reference/import-format.md lists them, then by record index. */
export function sortProblems(problems: readonly ImportProblem[]): ImportProblem[] {
  const rank = (problem: ImportProblem): [number, number] => {
    const match = LEADING.exec(problem.path);
    const key = match?.[1] ?? "";
    const position = key === "" ? -1 : TOP_LEVEL_KEYS.indexOf(key);
    return [position === -1 && key !== "" ? TOP_LEVEL_KEYS.length : position, Number(match?.[2] ?? -1)];
  };
  return problems
    .map((problem, order) => ({ problem, order, rank: rank(problem) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.order - b.order)
    .map(({ problem }) => problem);
}
