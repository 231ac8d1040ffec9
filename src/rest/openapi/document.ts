import type { GraphQLSchema } from "graphql";
import { compileRoute } from "../compiled-route.js";
import { API_PREFIX, type RestRoute } from "../route.js";
import { routes as contractRoutes, TAG_DESCRIPTIONS } from "../routes.js";
import { PARAMETERS, RESPONSE_HEADERS } from "./headers.js";
import { buildOperation } from "./operation.js";
import { overview } from "./overview.js";
import { problemSchema } from "./problems.js";
import { SchemaRegistry } from "./schema-registry.js";
import type { OpenApiDocument, PathItem } from "./types.js";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * The OpenAPI 3.1 description of the v1 REST API, generated from the route
 * table and the GraphQL schema the routes run against, so that it describes
 * what the service does rather than what someone remembered to write down.
 * It throws when a route and the schema disagree.
 */
export function buildOpenApiDocument(
  schema: GraphQLSchema,
  routes: RestRoute[] = contractRoutes,
): OpenApiDocument {
  const registry = new SchemaRegistry();
  const problemRef = problemSchema(schema, registry);
  const paths: Record<string, PathItem> = {};
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    const method =
      route.method === "GET"
        ? "get"
        : route.method === "POST"
          ? "post"
          : route.method === "PATCH"
            ? "patch"
            : "delete";
    item[method] = buildOperation(schema, compileRoute(schema, route), registry, problemRef);
    paths[route.path] = item;
  }
  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: "3.1.0",
    info: { title: "Buyer Public API", version: "v1", description: overview() },
    servers: [{ url: API_PREFIX, description: "This server" }],
    security: [{ ApiKey: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
    paths,
    components: {
      schemas: registry.schemas,
      parameters: PARAMETERS,
      headers: RESPONSE_HEADERS,
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-KEY",
          description: "Your organisation's API key (`bpk_…`), issued by an operator.",
        },
      },
    },
  };
}
