import type { GraphQLSchema } from "graphql";
import { API_PREFIX, routes as contractRoutes, type RestRoute } from "../routes.js";
import { PARAMETERS, RESPONSE_HEADERS } from "./headers.js";
import { buildOperation } from "./operation.js";
import { overview } from "./overview.js";
import { problemSchema } from "./problems.js";
import { routeDocs as contractRouteDocs, type RouteDoc, TAG_DESCRIPTIONS } from "./route-docs.js";
import { SchemaRegistry } from "./schema-registry.js";
import type { OpenApiDocument, PathItem } from "./types.js";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * The OpenAPI 3.1 description of the v1 REST API, generated from the route
 * table and the GraphQL schema the routes run against, so that it describes
 * what the service does rather than what someone remembered to write down.
 * It throws when the route table, the schema and route-docs disagree.
 */
export function buildOpenApiDocument(
  schema: GraphQLSchema,
  routes: RestRoute[] = contractRoutes,
  docs: Record<string, RouteDoc> = contractRouteDocs,
): OpenApiDocument {
  const stray = Object.keys(docs).filter(
    (operationId) => !routes.some((route) => route.operationId === operationId),
  );
  if (stray.length > 0)
    throw new Error(`OpenAPI: route-docs describe no such operation: ${stray.join(", ")}`);

  const registry = new SchemaRegistry();
  const problemRef = problemSchema(schema, registry);
  const paths: Record<string, PathItem> = {};
  for (const route of routes) {
    const doc = docs[route.operationId];
    if (!doc) throw new Error(`OpenAPI: route-docs do not describe ${route.operationId}`);
    const operation = buildOperation({ schema, route, doc, registry, problemRef });
    const item = paths[route.path] ?? {};
    item[route.method === "GET" ? "get" : route.method === "POST" ? "post" : "patch"] = operation;
    paths[route.path] = item;
  }

  const tags = [...new Set(routes.map((route) => docs[route.operationId]?.tag ?? ""))];
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
