import { DOCS_PATH } from "../api-reference.js";
import { type Problem, problemResponse } from "../problem.js";
import type { Endpoint } from "./exchange.js";

/** Where a 404 points a client that guessed a path. */
export const HELP_LINK = `<${DOCS_PATH}>; rel="help"`;

export function notFoundResponse(requestId: string): Response {
  return problemResponse(
    {
      status: 404,
      code: "not_found",
      detail: `No such resource; the API reference is at ${DOCS_PATH}`,
      headers: { link: HELP_LINK },
    },
    requestId,
  );
}

/** A path under the REST API that no operation has: what was asked for, and where the operations are listed. */
export function noOperation(pathname: string): Problem {
  const shown = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
  return {
    status: 404,
    code: "not_found",
    detail: `No operation has the path ${shown}; the API reference is at ${DOCS_PATH}`,
    headers: { link: HELP_LINK },
  };
}

/** Where the router sends a path no route has, outside the REST API (whose own 404 names the path). */
export const notFound: Endpoint = {
  admits: false,
  versionedGet: false,
  handle: async ({ requestId }) => notFoundResponse(requestId),
};
