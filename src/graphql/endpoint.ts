import { readPositionOf } from "../http/admission.js";
import { type Problem, UNAUTHENTICATED } from "../http/problem.js";
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
      problemResponse: graphqlProblem,
      async handle({ request, requestId, admission, whenSent, whenMade }) {
        // A wrong key is refused before the body is read; REST does the same after its 404/405 checks.
        if (!admission && request.headers.has("x-api-key")) return graphqlProblem(UNAUTHENTICATED);
        return yoga.fetch(request, {
          requestId,
          viewer: admission?.viewer ?? null,
          rateLimit: admission?.limit,
          position: readPositionOf(admission),
          whenSent,
          whenMade,
        });
      },
    },
  };
}

/** A problem as a GraphQL error, its code in GraphQL's spelling. */
function graphqlProblem(problem: Problem): Response {
  return Response.json(
    { errors: [{ message: problem.detail, extensions: { code: problem.code.toUpperCase() } }] },
    { status: problem.status, headers: problem.headers },
  );
}
