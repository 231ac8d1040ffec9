// What a request's path, query and body give its operation: path ids as
// UUIDs, query parameters it takes, and variables in GraphQL's spelling,
// checked as execution would check them, every problem at once.
import { getNamedType, isInputObjectType, isNonNullType } from "graphql";
import { API_PREFIX } from "../contract/route.js";
import { isUuid } from "../domain/uuid.js";
import type { Problem } from "../http/problem.js";
import { decodeGlobalId } from "../schema/global-ids.js";
import { fieldProblems } from "./errors.js";
import { snakeCase, toGraphQLVariable, type VariableProblem } from "./rest-spelling.js";
import type { RouteOperation } from "./route-operation.js";

/**
 * Path parameters as UUIDs, or the one that names no record (404): neither a
 * UUID nor the global ID of a record type the parameter takes (docs/design/decisions.md
 * §3 "Ids"). A global ID is handed on as its UUID.
 */
export function readPathParams(
  entry: RouteOperation,
  sent: readonly string[],
): { params: Record<string, string> } | { missing: string } {
  const params: Record<string, string> = {};
  for (const [index, name] of entry.paramNames.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(sent[index] ?? "");
    } catch {
      return { missing: name };
    }
    const uuid = uuidOf(value, entry.pathTargets.get(name)?.nodeTypes ?? []);
    if (uuid === null) return { missing: name };
    params[name] = uuid;
  }
  return { params };
}

/** The UUID an id names: a UUID itself, or the global ID of one of `nodeTypes`; else null. */
function uuidOf(value: string, nodeTypes: readonly string[]): string | null {
  if (isUuid(value)) return value.toLowerCase();
  const global = decodeGlobalId(value);
  return global && nodeTypes.includes(global.type) ? global.uuid : null;
}

/**
 * A query parameter the operation does not take is refused, naming those it
 * does, as Stripe does: a misspelled filter (`status` for `order_status[]`)
 * must not quietly answer everything (docs/design/decisions.md §3 "Requests and responses").
 */
export function unknownQueryParameter(entry: RouteOperation, query: URLSearchParams): Problem | null {
  const documented = entry.query.map(({ name, form }) => (form === "list" ? `${name}[]` : name));
  // A list also reads `name=a` and `name=a,b` (src/rest/query-parameters.ts).
  const known = new Set([...documented, ...entry.query.map(({ name }) => name)]);
  const unknown = [...new Set(query.keys())].filter((name) => !known.has(name));
  if (unknown.length === 0) return null;
  const names = unknown.map((name) => `\`${name}\``).join(", ");
  const takes =
    documented.length === 0
      ? "takes no query parameters"
      : `takes ${documented.map((name) => `\`${name}\``).join(", ")}`;
  const operation = `${entry.route.method} ${API_PREFIX}${entry.route.path}`;
  return {
    status: 400,
    code: "unknown_parameter",
    detail: `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${names}: ${operation} ${takes}`,
  };
}

/** The request's values in GraphQL's spelling, checked as execution would; every problem at once. */
export function toVariables(
  entry: RouteOperation,
  raw: Record<string, unknown>,
  body: Record<string, unknown>,
): { values: Record<string, unknown> } | { problem: Problem } {
  const problems: VariableProblem[] = nullProblems(entry, body);
  const values: Record<string, unknown> = {};
  for (const [name, type] of entry.variableTypes) {
    const value = toGraphQLVariable(name, raw[name], type, problems);
    if (value !== undefined) values[name] = value;
  }
  if (problems.length === 0) return { values };
  return {
    problem: { status: 422, code: "validation_failed", ...fieldProblems(problems, entry.argumentNames) },
  };
}

/**
 * A body field takes null only where the contract says so (`acceptsNull`: a
 * partial update clearing it). GraphQL reads null in an optional field as
 * "absent" (a default, "unchanged", every endpoint), which the contract
 * refuses: the document admits no null there (docs/design/decisions.md §3
 * "Requests and responses"). A required field's null is GraphQL's own problem.
 */
function nullProblems(entry: RouteOperation, body: Record<string, unknown>): VariableProblem[] {
  const target = entry.bodyTarget;
  const type = target ? getNamedType(target.type) : null;
  if (!target || !isInputObjectType(type)) return [];
  const hints = entry.route.body?.fields ?? {};
  return Object.values(type.getFields())
    .filter(({ name, type: fieldType }) => !isNonNullType(fieldType) && body[snakeCase(name)] === null)
    .filter(({ name }) => !hints[snakeCase(name)]?.acceptsNull)
    .map(({ name }) => ({
      path: [...target.path, name],
      code: "invalid" as const,
      message: "must not be null",
    }));
}
