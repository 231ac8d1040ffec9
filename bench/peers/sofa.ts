import { randomUUID } from "node:crypto";
import type { RequestListener } from "node:http";
import { useSofa } from "@graphql-yoga/plugin-sofa";
import { createYoga } from "graphql-yoga";
import { routes } from "../../src/contract/routes.js";
import type { Database } from "../../src/db/database.js";
import type { GraphQLContext } from "../../src/schema/context.js";
import { schema } from "../../src/schema/index.js";
import { createAuthenticator } from "./authenticator.js";
import { SOFA_BASE_PATH } from "./sofa-base-path.js";
import { trimToContract } from "./sofa-trim.js";

/** The context every query and mutation resolver reads; nothing here serves subscriptions. */
type PeerContext = Pick<GraphQLContext, "prisma" | "viewer" | "requestId" | "appBaseUrl">;

/**
 * Peer (c): the off-the-shelf way to get REST from a GraphQL schema. SOFA
 * generates one route per root field and a document for it, and executes it
 * through Yoga, with the gateway's schema and the same context shape. Its
 * defaults are kept, with one exception forced by this schema: the generated
 * documents are trimmed to the contract's fields (see sofa-trim.ts).
 */
export function createSofaListener(options: { database: Database; appBaseUrl: string }): RequestListener {
  const { prisma } = options.database;
  const authenticator = createAuthenticator(prisma, (error) => console.error(error));
  const yoga = createYoga<Record<string, unknown>, PeerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: false,
    logging: false,
    context: async ({ request }): Promise<PeerContext> => ({
      prisma,
      viewer: await authenticator.authenticate(request.headers.get("x-api-key")),
      requestId: randomUUID(),
      appBaseUrl: options.appBaseUrl,
    }),
    plugins: [
      useSofa({ basePath: SOFA_BASE_PATH }),
      trimToContract(
        schema,
        routes.map((route) => route.document),
      ),
    ],
  });
  return (request, response) => {
    if (request.url === "/healthz") {
      response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    void yoga(request, response);
  };
}
