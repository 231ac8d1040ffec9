import { readPositionOf } from "../http/admission.js";
import type { Route } from "../http/router.js";
import type { Endpoint } from "../http/stages/exchange.js";
import { type createGraphQLServer, GRAPHQL_PATH } from "./yoga.js";

/** /graphql for the router: the admission stage has looked the API key up. */
export function graphqlRoute(yoga: ReturnType<typeof createGraphQLServer>): Route<Endpoint> {
  return {
    template: GRAPHQL_PATH,
    target: {
      admits: true,
      versionedGet: false,
      // A failure the stages answer (the database unreachable while the key is looked up) as a GraphQL error.
      problemResponse: (problem) =>
        Response.json(
          { errors: [{ message: problem.detail, extensions: { code: problem.code.toUpperCase() } }] },
          { status: problem.status, headers: problem.headers },
        ),
      async handle({ request, requestId, admission, whenSent }) {
        // A wrong key is refused before the body is read; REST does the same after its 404/405 checks.
        if (!admission && request.headers.has("x-api-key")) return unauthenticated();
        return yoga.fetch(request, {
          requestId,
          viewer: admission?.viewer ?? null,
          rateLimit: admission?.limit,
          position: readPositionOf(admission),
          whenSent,
        });
      },
    },
  };
}

/** The GraphQL answer to a request whose key is wrong, given without reading its body. */
function unauthenticated(): Response {
  return Response.json(
    {
      errors: [{ message: "A valid X-API-KEY header is required", extensions: { code: "UNAUTHENTICATED" } }],
    },
    { status: 401, headers: { "www-authenticate": 'ApiKey realm="buyer-api", header="X-API-KEY"' } },
  );
}
