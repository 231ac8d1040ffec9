import { GraphQLError } from "graphql";

/** `extensions.code` of an operation refused before it runs. */
export const REFUSAL_CODES = [
  "DEPTH_LIMIT_EXCEEDED",
  "ALIAS_LIMIT_EXCEEDED",
  "COST_LIMIT_EXCEEDED",
  "TOKEN_LIMIT_EXCEEDED",
  "DIRECTIVE_LIMIT_EXCEEDED",
  "CONCURRENCY_LIMIT_EXCEEDED",
  "INTROSPECTION_DISABLED",
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

interface RefusalHttp {
  status: number;
  headers?: Record<string, string>;
}

/**
 * An operation refused before it runs. `spec: false` keeps the status
 * whatever the client accepts: Yoga would otherwise answer 200 to clients
 * that accept only `application/json`, as it does for invalid documents.
 */
export function refusal(
  code: RefusalCode,
  message: string,
  extensions: Record<string, unknown> = {},
  http: RefusalHttp = { status: 400 },
): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions, http: { ...http, spec: false } } });
}
