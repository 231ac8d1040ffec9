import type { App } from "../../src/app.js";

export const GRAPHQL = "http://localhost/graphql";

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface GraphQLResponse<Data> {
  status: number;
  headers: Headers;
  data: Data | null | undefined;
  errors: GraphQLErrorBody[] | undefined;
}

export interface GraphQLCallOptions {
  key?: string | null;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** POST /graphql as a front-end would send it. */
export async function graphql<Data = Record<string, unknown>>(
  app: App,
  query: string,
  { key, variables, headers = {} }: GraphQLCallOptions = {},
): Promise<GraphQLResponse<Data>> {
  const response = await app.fetch(GRAPHQL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...(key ? { "x-api-key": key } : {}),
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Data | null; errors?: GraphQLErrorBody[] };
  return { status: response.status, headers: response.headers, data: body.data, errors: body.errors };
}

/** The data of a response that must have succeeded; fails with the errors otherwise. */
export async function graphqlData<Data = Record<string, unknown>>(
  app: App,
  query: string,
  options: GraphQLCallOptions = {},
): Promise<Data> {
  const response = await graphql<Data>(app, query, options);
  if (response.errors?.length || !response.data) {
    throw new Error(`GraphQL errors (HTTP ${response.status}): ${JSON.stringify(response.errors)}`);
  }
  return response.data;
}

export interface Page<Node> {
  totalCount?: number;
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null; hasPreviousPage?: boolean };
}

export const nodes = <Node>(page: Page<Node>): Node[] => page.edges.map((edge) => edge.node);

/**
 * The statements a request sent for its answer: not its key's admission nor
 * the upkeep that may follow it (the key's last use; a sweep of old
 * rate-limit windows, on a random request), which run whatever the query.
 */
export const answerStatements = (queries: readonly string[]): string[] =>
  queries.filter((sql) => !/api_keys|rate_limit_windows/.test(sql));
